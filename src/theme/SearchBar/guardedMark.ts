// Stands in for mark.js, which the search plugin uses unguarded to highlight the searched words
// on the target page (plugins/search-highlight-guard aliases it here). Spec §8: a highlight error
// is logged to the console only; it must never break the page.
import MarkJs from 'mark.js/dist/mark.es6.js';

type MarkContext = ConstructorParameters<typeof MarkJs>[0];
type MarkOptions = Record<string, unknown>;

function report(error: unknown): void {
  console.error('[search] Could not highlight the searched words on this page:', error);
}

export default class GuardedMark {
  private readonly inner: MarkJs | null = null;

  constructor(context: MarkContext) {
    try {
      this.inner = new MarkJs(context);
    } catch (error) {
      report(error);
    }
  }

  mark(keywords: string | readonly string[], options?: MarkOptions): this {
    try {
      this.inner?.mark(keywords, options);
    } catch (error) {
      report(error);
    }
    return this;
  }

  unmark(options?: MarkOptions): this {
    try {
      this.inner?.unmark(options);
    } catch (error) {
      report(error);
    }
    return this;
  }
}
