// Stands in for the search plugin's utils/tokenize.js (0.54.1) in its search worker (aliased by
// ./index.ts). Same words as the plugin's (split at spaces and hyphens, lower-case), but each word
// loses the punctuation around it, as lunr's trimmer strips it from every word of the index:
// `lifetime?`, `"refund"` and `{{accessToken}}` then find what `lifetime`, `refund` and
// `accesstoken` find, instead of nothing. Inner punctuation (`orders.create`, `what's`) stays.

/** Punctuation, symbols and emoji at either end of a word; letters of any script, digits and `_` stay. */
const OUTER_PUNCTUATION = /^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu;

export function trimWord(word: string): string {
  return word.replace(OUTER_PUNCTUATION, '');
}

/** The plugin's `tokenize(text, language)` for this site's language (`en`), with trimWord applied. */
export function tokenize(text: string, _language?: readonly string[]): string[] {
  return (text.toLowerCase().match(/[^-\s]+/g) ?? []).map(trimWord).filter((word) => word.length > 0);
}
