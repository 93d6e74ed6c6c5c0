// Readers name some things otherwise than the docs' headings do: a query is searched in the docs' words first, then
// as typed. Not for words the docs use for something else ("recharge" is auto-recharge, not a top-up).
import lunr from 'lunr';

import {tokenize} from './tokenize';

/** The docs' words for a thing, then readers' words for it; matched word by word on their stems. */
export const VARIANTS: readonly (readonly [docs: string, readers: readonly string[]])[] = [
  ['top up', ['topup']],
  ['rate limits', ['too many requests', '429', 'throttled', 'throttling']],
  ['invoice', ['pdf', 'receipt', 'statement']],
  ['credentials', ['api keys', 'api key']],
  ['javascript', ['node', 'nodejs']],
];

const lunrApi = lunr as unknown as {
  Token: new (word: string, metadata: object) => object;
  stemmer(token: object): object;
  stopWordFilter(word: string): string | undefined;
};
const stem = (word: string) => lunrApi.stemmer(new lunrApi.Token(word, {})).toString();

const RULES = VARIANTS.flatMap(([docs, readers]) =>
  readers.map((reader) => ({reader: tokenize(reader).map(stem), docs: tokenize(docs)})),
).sort((a, b) => b.reader.length - a.reader.length);

/** The query's words in the docs' words, when some reader's phrase is among them, then as typed. */
export function docsWording(tokens: readonly string[]): string[][] {
  const stems = tokens.map(stem);
  const rewritten: string[] = [];
  for (let at = 0; at < tokens.length;) {
    const rule = RULES.find(({reader}) => reader.every((word, k) => stems[at + k] === word));
    if (rule) {
      // Once, when the docs' words are in the query too.
      rewritten.push(...rule.docs.filter((word) => !stems.includes(stem(word)) && !rewritten.includes(word)));
      at += rule.reader.length;
    } else {
      rewritten.push(tokens[at]!);
      at += 1;
    }
  }
  return rewritten.join(' ') === tokens.join(' ') ? [[...tokens]] : [rewritten, [...tokens]];
}

/**
 * Words of a question that name no topic ("how do I know…", "which values…"): held by many sections, they let a
 * section that happens to hold them all outrank the one about the topic. Not the words headings use ("Use the
 * token", "What you need", "Event types"): the heading would lose to sections without them.
 */
const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'know',
  'see',
  'find',
  'value',
  'values',
  'possible',
  'available',
  'kind',
  'kinds',
  'need',
  'happen',
  'happens',
  'handle',
  'handling',
]);

/** Words of change: with a question opening with "when", they ask about the docs' history, which news pages tell. */
const CHANGE_WORDS: ReadonlySet<string> = new Set([
  'added',
  'introduced',
  'removed',
  'deprecated',
  'replaced',
  'changed',
  'changes',
  'released',
]);

/** The query without its question words, when it has some and a word that is no stop word is left; otherwise null. */
export function topicWords(tokens: readonly string[]): string[] | null {
  const topic = tokens.filter((word) => !QUESTION_WORDS.has(word));
  const named = topic.some((word) => lunrApi.stopWordFilter(word) !== undefined);
  return named && topic.length < tokens.length ? topic : null;
}

/**
 * Whether the query asks about the docs' history: it names a year or a deprecation, or opens with "when" and holds a
 * word of change ("when were refunds added"; not "what happens when an endpoint is removed").
 */
function asksAboutChanges(tokens: readonly string[]): boolean {
  return (
    tokens.some((word) => /^20\d\d$/.test(word) || word === 'deprecated') ||
    (tokens[0] === 'when' && tokens.some((word) => CHANGE_WORDS.has(word)))
  );
}

/**
 * For a query about the docs' history, its topic: the query without its words of change, which a news page's entry
 * files under a heading ("Added") rather than repeats. Otherwise null.
 */
export function historyTopic(tokens: readonly string[]): string[] | null {
  return asksAboutChanges(tokens) ? tokens.filter((word) => !CHANGE_WORDS.has(word)) : null;
}
