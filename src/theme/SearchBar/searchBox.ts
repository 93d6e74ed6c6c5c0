// Pure helpers of the SearchBar wrap; callers read navigator after hydration.
import {SEARCH} from '@site/src/constants/site';

type NavigatorWithUAData = Navigator & {userAgentData?: {platform?: string}};

export function isApplePlatform(nav: Navigator = navigator): boolean {
  const hinted = (nav as NavigatorWithUAData).userAgentData?.platform;
  // Client hints are empty when the user agent is overridden: fall back to the UA string.
  const platform = hinted || nav.userAgent || nav.platform || '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

export function shortcutHint(isMac: boolean): readonly [string, string] {
  return [isMac ? '⌘' : 'Ctrl', SEARCH.shortcutKey.toUpperCase()];
}

export function isSearchShortcut(event: KeyboardEvent, isMac: boolean): boolean {
  return (
    event.key.toLowerCase() === SEARCH.shortcutKey &&
    (isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey) &&
    !event.altKey &&
    !event.shiftKey
  );
}

export type QueryCut = 'length' | 'words' | null;

/** As the search plugin's tokenizer splits them. */
const WORD = /[^-\s]+/g;

/** Never splits a surrogate pair (emoji). */
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

export function cutNotice(cut: Exclude<QueryCut, null>): string {
  return cut === 'length'
    ? `Only the first ${SEARCH.maxQueryLength} characters are searched.`
    : `Only the first ${SEARCH.maxQueryWords} words are searched.`;
}
