/**
 * Search signals for the analytics (README, "Reading reader signals in Plausible"): which queries
 * readers settle on, how many results they get and which one they choose. Pure: no DOM, no
 * aliases, so Node tests import it as is; the SearchBar wrap feeds it the box's events.
 */
import type {EventProps} from '../../../plugins/page-views/track';

/** At most this many characters of a query are reported. */
export const MAX_REPORTED_QUERY = 60;

/** A query unchanged this long was settled on, even if the reader then types on. */
export const SETTLE_MS = 1000;

/** Event names: every settled query is `Search`, or `Search: No Results` when nothing matched. */
export const SEARCH_EVENT = 'Search';
export const NO_RESULTS_EVENT = 'Search: No Results';

/** Anything around an `@` with text on both sides (`a@b.c`, `a@b`), but not an npm scope. */
const EMAIL_LIKE = /[^\s@]+@[^\s@]+/g;

/**
 * The query as reported: e-mail-like strings become `[email]`, every run of digits `#` (order
 * numbers, ICCIDs, phone numbers), lowercased, whitespace collapsed, at most 60 characters.
 */
export function normalizeQuery(query: string): string {
  return query
    .replace(EMAIL_LIKE, '[email]')
    .replace(/\d+/g, '#')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_REPORTED_QUERY)
    .trimEnd();
}

export type Track = (name: string, props: EventProps) => void;

/**
 * One event per settled query, never one per keystroke. The rule: a query is reported once, when
 * the reader chooses a result (with its 1-based rank), leaves the box (blur, Escape, Enter with
 * nothing to choose, leaving the page), or starts changing a query they had left unchanged for
 * SETTLE_MS. A query whose results were never shown (typed and left at once) is not reported.
 */
export function createSearchSignals(track: Track, now: () => number = () => Date.now()) {
  let pending: {query: string; changedAt: number} | null = null;
  let shown: {query: string; count: number} | null = null;

  const report = (query: string | undefined, rank?: number): void => {
    pending = null;
    const reported = normalizeQuery(query ?? '');
    if (!reported || !shown || shown.query !== query) return;
    const props: EventProps = {query: reported, results: shown.count};
    if (rank) props.rank = rank;
    track(shown.count ? SEARCH_EVENT : NO_RESULTS_EVENT, props);
  };

  return {
    /** The reader changed the query (an input event). */
    changed(query: string): void {
      if (pending && now() - pending.changedAt >= SETTLE_MS) report(pending.query);
      pending = normalizeQuery(query) ? {query, changedAt: now()} : null;
    },
    /** The results list now shows `count` results for `query`. */
    shown(query: string, count: number): void {
      shown = {query, count};
    },
    /** The reader chose the result at 1-based `rank`. */
    chosen(rank: number): void {
      report(pending ? pending.query : shown?.query, rank);
    },
    /** The reader left the box or the page. */
    left(): void {
      if (pending) report(pending.query);
    },
  };
}
