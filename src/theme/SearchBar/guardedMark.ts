// Stands in for mark.js (plugins/search aliases it): a highlight error must never break the page, and mark.js
// loads on first use, since `unmark()` on every navigation needs none until something was marked.
import type MarkJs from 'mark.js/dist/mark.es6.js';

type MarkContext = ConstructorParameters<typeof MarkJs>[0];
type MarkOptions = Record<string, unknown>;

function report(error: unknown): void {
  console.error('[search] Could not highlight the searched words on this page:', error);
}

let loaded: typeof MarkJs | undefined;
let loading: Promise<typeof MarkJs> | undefined;

function loadMarkJs(): Promise<typeof MarkJs> {
  loading ??= import(/* webpackChunkName: "mark-js" */ 'mark.js/dist/mark.es6.js').then(
    (module) => (loaded = module.default),
  );
  return loading;
}

export default class GuardedMark {
  private readonly context: MarkContext;
  private inner: MarkJs | null = null;

  constructor(context: MarkContext) {
    this.context = context;
  }

  mark(keywords: string | readonly string[], options?: MarkOptions): this {
    this.run((inner) => inner.mark(keywords, options));
    return this;
  }

  unmark(options?: MarkOptions): this {
    // Nothing can be marked before mark.js was first asked for: no need to load it.
    if (loading) {
      this.run((inner) => inner.unmark(options));
    }
    return this;
  }

  /** Runs `call` now if mark.js is loaded, else once it is (calls keep their order). */
  private run(call: (inner: MarkJs) => void): void {
    const apply = () => {
      try {
        this.inner ??= new loaded!(this.context);
        call(this.inner);
      } catch (error) {
        report(error);
      }
    };
    if (loaded) {
      apply();
    } else {
      loadMarkJs().then(apply, report);
    }
  }
}
