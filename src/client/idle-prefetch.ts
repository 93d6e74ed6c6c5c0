/**
 * Client module: viewport prefetching in idle time. Every @docusaurus/Link prefetches its route's
 * chunks from an IntersectionObserver callback when it scrolls into view, so right after hydration
 * every link on screen prefetches in one task (each call matches routes and appends <link
 * rel="prefetch"> elements): ~100 ms on the changelog at Lighthouse's 4× mobile throttle, counted as
 * blocking time. Core's `window.docusaurus` object is frozen and Link is not swizzlable, so this
 * intercepts the object clientEntry assigns (after client modules are evaluated) and queues viewport
 * prefetches, one per idle callback. Preload on hover and touch (`preload`) stays immediate.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

type DocusaurusGlobal = Window['docusaurus'];

/** Longest wait for an idle moment; a busy page still prefetches within this. */
const IDLE_TIMEOUT_MS = 2000;

function whenIdle(run: () => void): void {
  if (typeof window.requestIdleCallback === 'function') {
    window.requestIdleCallback(run, {timeout: IDLE_TIMEOUT_MS});
  } else {
    window.setTimeout(run, 1);
  }
}

/** `prefetch` that defers each call to its own idle callback, in the order links came into view. */
export function idlePrefetch(prefetch: DocusaurusGlobal['prefetch']): DocusaurusGlobal['prefetch'] {
  const queued = new Set<string>();
  const runNext = () => {
    const [routePath] = queued;
    if (routePath === undefined) {
      return;
    }
    queued.delete(routePath);
    void prefetch(routePath);
    if (queued.size > 0) {
      whenIdle(runNext);
    }
  };
  return (routePath) => {
    if (!queued.has(routePath)) {
      queued.add(routePath);
      if (queued.size === 1) {
        whenIdle(runNext);
      }
    }
    // Link ignores the result; `false` is the API's "not prefetched now".
    return false;
  };
}

if (ExecutionEnvironment.canUseDOM && !Object.getOwnPropertyDescriptor(window, 'docusaurus')) {
  let current: DocusaurusGlobal | undefined;
  Object.defineProperty(window, 'docusaurus', {
    configurable: true,
    enumerable: true,
    get: () => current,
    set(value: DocusaurusGlobal) {
      current = Object.freeze({...value, prefetch: idlePrefetch(value.prefetch)});
    },
  });
}
