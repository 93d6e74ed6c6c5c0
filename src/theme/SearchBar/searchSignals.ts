// Search signals for analytics. Pure (no DOM, no aliases) so Node tests import it as is.
import type {EventProps} from '../../../lib/analytics-track';

export const MAX_REPORTED_QUERY = 60;

/** A query unchanged this long was settled on, even if the reader then types on. */
export const SETTLE_MS = 1000;

export const SEARCH_EVENT = 'Search';
export const NO_RESULTS_EVENT = 'Search: No Results';

/** Not an npm scope: needs text on both sides of the `@`. */
const EMAIL_LIKE = /[^\s@]+@[^\s@]+/g;

/** Digits become `#` and e-mails `[email]`: order numbers, ICCIDs and addresses are personal. */
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

/** One event per settled query, never one per keystroke; a query whose results were never shown is not reported. */
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
    changed(query: string): void {
      if (pending && now() - pending.changedAt >= SETTLE_MS) report(pending.query);
      pending = normalizeQuery(query) ? {query, changedAt: now()} : null;
    },
    shown(query: string, count: number): void {
      shown = {query, count};
    },
    chosen(rank: number): void {
      report(pending ? pending.query : shown?.query, rank);
    },
    left(): void {
      if (pending) report(pending.query);
    },
  };
}
