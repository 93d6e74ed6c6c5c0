/**
 * lunr splits at spaces and hyphens only (no tokenizer option), so `acme.orders.create(params` is one token that
 * `orders.create` never finds; this adds the dotted names and their tails. Index cost: BENCHMARKS.md, "Search".
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

/** An apostrophe or a final stop is prose punctuation. */
const CODE_PUNCTUATION = /[.()[\]{}:;,=<>/\\"`@$&?!|+*#]/;
const DOTTED_NAME = /[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+/g;

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
