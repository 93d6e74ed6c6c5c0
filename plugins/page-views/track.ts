// Calls wait in Plausible's queue until the deferred script runs; consent is the script's decision, so callers never branch.
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
