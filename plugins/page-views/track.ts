/**
 * The one way site code sends a custom event: `track('Feedback', {vote: 'yes'})`. It calls
 * `window.plausible`, which the page-views script defines; until that deferred script has run (or
 * when analytics is off: no script at all), calls wait in Plausible's own queue, `plausible.q`.
 * Whether anything is sent (Do Not Track, Global Privacy Control, localhost) is the script's
 * decision, so callers behave the same for every reader. Never throws.
 */
import type {EventProps, Plausible} from './script';

export type {EventProps};

/** Enough for any visit; beyond it, calls made while analytics is off are dropped, not kept. */
const MAX_QUEUED = 100;

export function track(name: string, props?: EventProps): void {
  try {
    const w = window as unknown as {plausible?: Plausible};
    if (!w.plausible) {
      const queue: unknown[][] = [];
      w.plausible = Object.assign((...args: unknown[]) => void (queue.length < MAX_QUEUED && queue.push(args)), {
        q: queue,
      });
    }
    w.plausible(name, props ? {props} : undefined);
  } catch {
    // analytics never gets in the reader's way
  }
}
