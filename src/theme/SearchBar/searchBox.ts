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

import type {QueryCut} from '@site/lib/search-query';

export {boundQuery, type QueryCut} from '@site/lib/search-query';

export function cutNotice(cut: Exclude<QueryCut, null>): string {
  return cut === 'length'
    ? `Only the first ${SEARCH.maxQueryLength} characters are searched.`
    : `Only the first ${SEARCH.maxQueryWords} words are searched.`;
}
