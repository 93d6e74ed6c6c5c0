/**
 * The browser half of the page-views plugin. Not a ClientModule: it must stay out of the main
 * bundle, so index.ts compiles this file on its own (ES2017, wrapped in a function) and writes it
 * to build/js/page-views.js, loaded with `defer`. It reads its settings from its own <script>
 * tag's data-* attributes. The exported functions are pure and unit-tested in script.test.ts.
 * It sets no cookie, touches no storage, keeps no identifier and reads nothing the reader types.
 */

export type ViewportClass = 'desktop' | 'mobile';
export type ColorMode = 'light' | 'dark';

/** One page view in the wire format of Plausible's events API (POST /api/event). */
export type PageViewEvent = {
  name: 'pageview';
  url: string;
  domain: string;
  referrer: string | null;
  props: {viewport: ViewportClass; colorMode: ColorMode};
};

/** What the script knows about the page when it counts a view. */
export type PageState = {href: string; referrer: string; width: number; theme: string | null};

/** What decides whether anything may be sent at all. */
export type Consent = {
  doNotTrack: unknown;
  globalPrivacyControl: unknown;
  hostname: string;
  allowLocalhost: boolean;
};

/** Docusaurus's breakpoint: the mobile layout is ≤ 996 px wide. */
export function viewportClass(width: number): ViewportClass {
  return width > 996 ? 'desktop' : 'mobile';
}

/** The page URL without query string or hash. */
export function pageUrl(href: string): string {
  const url = new URL(href);
  return url.origin + url.pathname;
}

/** Only the origin of the referrer (no path, no query), or null. */
export function referrerOrigin(referrer: string): string | null {
  try {
    const origin = new URL(referrer).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

export function isLocalHost(hostname: string): boolean {
  return /^(?:localhost|127(?:\.\d+){3}|\[::1\]|0\.0\.0\.0)$|\.localhost$/.test(hostname);
}

/** False when Do Not Track or Global Privacy Control is on, or on a local host (unless allowed). */
export function maySend(consent: Consent): boolean {
  const dnt = consent.doNotTrack;
  if (dnt === '1' || dnt === 'yes' || consent.globalPrivacyControl === true) return false;
  return consent.allowLocalhost || !isLocalHost(consent.hostname);
}

export function buildPayload(state: PageState, domain: string): PageViewEvent {
  return {
    name: 'pageview',
    url: pageUrl(state.href),
    domain,
    referrer: referrerOrigin(state.referrer),
    props: {viewport: viewportClass(state.width), colorMode: state.theme === 'dark' ? 'dark' : 'light'},
  };
}

type Sender = {sendBeacon?: Navigator['sendBeacon']; fetch?: typeof fetch};

/** Fire and forget: sendBeacon, else fetch with keepalive; never throws, never retries. */
export function sendEvent(collectorUrl: string, body: string, sender: Sender): void {
  try {
    if (sender.sendBeacon && sender.sendBeacon(collectorUrl, body)) return;
  } catch {
    // fall through to fetch
  }
  try {
    // no-cors + text/plain: no preflight and no CORS error for a cross-origin collector.
    if (!sender.fetch) return;
    sender
      .fetch(collectorUrl, {
        method: 'POST',
        body,
        keepalive: true,
        mode: 'no-cors',
        credentials: 'omit',
        headers: {'Content-Type': 'text/plain'},
      })
      .catch(() => undefined);
  } catch {
    // never throw into the page
  }
}

function start(): void {
  const script = document.currentScript as HTMLScriptElement | null;
  const data: DOMStringMap = script ? script.dataset : {};
  const collectorUrl = data.api || '/api/event';
  const domain = data.domain || location.host;
  let lastPath: string | undefined;

  // One view per path: hash changes, replaceState and a second event for the same path do not count.
  const track = (): void => {
    try {
      if (location.pathname === lastPath) return;
      lastPath = location.pathname;
      const nav = navigator as Navigator & {globalPrivacyControl?: boolean};
      const consent = {
        doNotTrack: nav.doNotTrack,
        globalPrivacyControl: nav.globalPrivacyControl,
        hostname: location.hostname,
        allowLocalhost: data.allowLocalhost === 'true',
      };
      if (!maySend(consent)) return;
      const state = {
        href: location.href,
        referrer: document.referrer,
        width: window.innerWidth,
        theme: document.documentElement.getAttribute('data-theme'),
      };
      const body = JSON.stringify(buildPayload(state, domain));
      sendEvent(collectorUrl, body, {
        sendBeacon: nav.sendBeacon && nav.sendBeacon.bind(nav),
        fetch: window.fetch && window.fetch.bind(window),
      });
    } catch {
      // never throw into the page
    }
  };

  // Docusaurus navigates with history.pushState (react-router) and popstate (back/forward).
  try {
    const pushState = history.pushState;
    history.pushState = function (this: History, ...args: Parameters<History['pushState']>) {
      pushState.apply(this, args);
      track();
    };
    addEventListener('popstate', track);
  } catch {
    // without history support, count the first view only
  }
  track();
}

if (typeof document !== 'undefined') start();
