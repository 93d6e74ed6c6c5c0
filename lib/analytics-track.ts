// Calls wait in Plausible's queue until the deferred script runs; consent is the script's decision, so callers never branch.
/** A custom event's properties, as Plausible takes them. */
export type EventProps = Record<string, string | number | boolean>;

/** Plausible's global function, with the queue it keeps until its script runs. */
export type Plausible = ((name: string, options?: {props?: EventProps}) => void) & {q?: unknown[][]};

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
