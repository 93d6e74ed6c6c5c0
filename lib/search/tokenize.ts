// The search plugin's utils/tokenize.js (0.54.1), but each word loses its outer punctuation, as lunr's trimmer
// stripped it from the index; inner punctuation (`orders.create`) stays.

/** Punctuation, symbols and emoji at either end of a word; letters of any script, digits and `_` stay. */
const OUTER_PUNCTUATION = /^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu;

export function trimWord(word: string): string {
  return word.replace(OUTER_PUNCTUATION, '');
}

export function tokenize(text: string, _language?: readonly string[]): string[] {
  return (text.toLowerCase().match(/[^-\s]+/g) ?? []).map(trimWord).filter((word) => word.length > 0);
}
