/** What the search box searches of a query (and the MCP server's search_docs, so both rank alike). */
import {SEARCH} from '../src/constants/site';

export type QueryCut = 'length' | 'words' | null;

/** Words as the search plugin's tokenizer sees them (`/[^-\s]+/g`). */
const WORD = /[^-\s]+/g;

/**
 * Bounds what is searched: at most `maxLength` characters and `maxWords` words. Returns the
 * query to search and why it was cut, if it was. Never splits a surrogate pair (emoji).
 */
export function boundQuery(
  query: string,
  maxLength: number = SEARCH.maxQueryLength,
  maxWords: number = SEARCH.maxQueryWords,
): {query: string; cut: QueryCut} {
  let end = query.length;
  let cut: QueryCut = null;
  if (end > maxLength) {
    end = maxLength;
    cut = 'length';
  }
  let words = 0;
  for (const match of query.slice(0, end).matchAll(WORD)) {
    words += 1;
    if (words > maxWords) {
      end = match.index;
      cut = 'words';
      break;
    }
  }
  if (end > 0 && end < query.length && isHighSurrogate(query.charCodeAt(end - 1))) {
    end -= 1;
  }
  return {query: cut ? query.slice(0, end).trimEnd() : query, cut};
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
