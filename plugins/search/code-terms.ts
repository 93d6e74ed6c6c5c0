/**
 * Makes dotted names in code findable. The search plugin builds its index with lunr, which splits
 * text at spaces and hyphens only (it has no tokenizer option for English), so the code
 * `acme.orders.create(params, …)` is indexed as the token `acme.orders.create(params`, which
 * `orders.create` does not find; lunr's trimmer already indexes a bare `{idempotencyKey:` as
 * `idempotencykey`. This adds, for each token that contains code punctuation, its dotted names and
 * their tails (`acme.orders.create`, `orders.create`) as extra tokens at their own positions, and
 * keeps the token itself. Only the index is built differently: the search box is unchanged.
 * Its cost in index bytes: BENCHMARKS.md, "Search".
 */
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'search-code-terms';

type LunrToken = {toString(): string; metadata: Record<string, unknown> & {position?: [number, number]}};
type Tokenizer = ((input: unknown, metadata?: Record<string, unknown>) => LunrToken[]) & {separator: RegExp};
type Lunr = {
  tokenizer: Tokenizer;
  Token: new (text: string, metadata: Record<string, unknown>) => LunrToken;
  utils: {clone: <T>(value: T) => T};
};

/** A token is code when it holds punctuation that prose words do not (an apostrophe or a final stop do not count). */
const CODE_PUNCTUATION = /[.()[\]{}:;,=<>/\\"`@$&?!|+*#]/;
const DOTTED_NAME = /[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+/g;

/**
 * The terms a reader may search for inside one code token (lower-case, as lunr has it): each dotted
 * name and its shorter dotted tails, each with its offset in the token.
 */
export function codeTerms(token: string): {term: string; offset: number}[] {
  if (!CODE_PUNCTUATION.test(token.replace(/[.'’]+$/, ''))) {
    return [];
  }
  const terms = new Map<string, number>();
  for (const match of token.matchAll(DOTTED_NAME)) {
    let offset = match.index;
    let name = match[0];
    while (name.includes('.')) {
      terms.set(name, terms.get(name) ?? offset);
      const dot = name.indexOf('.') + 1;
      offset += dot;
      name = name.slice(dot);
    }
  }
  terms.delete(token);
  return [...terms].map(([term, offset]) => ({term, offset}));
}

/** Wraps lunr's tokenizer (the one the search plugin's index builder takes) to add codeTerms. */
export function withCodeTerms(lunr: Lunr): Tokenizer {
  const original = lunr.tokenizer;
  const tokenizer = ((input, metadata) => {
    const tokens = original(input, metadata);
    if (Array.isArray(input)) {
      return tokens;
    }
    const extra: LunrToken[] = [];
    for (const token of tokens) {
      const [start] = token.metadata.position ?? [0, 0];
      for (const {term, offset} of codeTerms(token.toString())) {
        const tokenMetadata = {...lunr.utils.clone(token.metadata), position: [start + offset, term.length]};
        extra.push(new lunr.Token(term, tokenMetadata));
      }
    }
    return extra.length ? tokens.concat(extra) : tokens;
  }) as Tokenizer;
  tokenizer.separator = original.separator;
  return tokenizer;
}

const PATCHED = Symbol.for(PLUGIN_NAME);

/** The lunr instance the search plugin builds its index with. */
export function searchPluginLunr(): Lunr & {[PATCHED]?: true} {
  const searchPlugin = path.dirname(require.resolve('@easyops-cn/docusaurus-search-local/package.json'));
  return require(require.resolve('lunr', {paths: [searchPlugin]})) as Lunr & {[PATCHED]?: true};
}

export default function searchCodeTerms(): Plugin {
  const lunr = searchPluginLunr();
  // lunr's index builder reads `lunr.tokenizer` when it is created (in the search plugin's postBuild).
  if (!lunr[PATCHED]) {
    lunr.tokenizer = withCodeTerms(lunr);
    lunr[PATCHED] = true;
  }
  return {name: PLUGIN_NAME};
}
