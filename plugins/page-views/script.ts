/**
 * The browser half of the page-views plugin. Not a ClientModule: it must stay out of the main
 * bundle, so index.ts compiles this file on its own (ES2017, wrapped in a function) and writes it
 * to build/js/page-views.js, loaded with `defer`. It reads its settings from its own <script>
 * tag's data-* attributes. The exported functions are pure and unit-tested in script.test.ts.
 * It sets no cookie, touches no storage, keeps no identifier and reads nothing the reader types.
 * Besides page views it sends custom events, the way Plausible's own script does: pages call
 * `window.plausible(name, {props})` (track.ts queues calls made before this script has run), and
 * one delegated click listener reports outbound links and file downloads.
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

/** A custom event (Plausible's custom-event goals): a name and scalar props, no page-view props. */
export type CustomEvent = {name: string; url: string; domain: string; referrer: string | null; props?: EventProps};

export type EventProps = Record<string, string | number | boolean>;

/** Plausible's call signature: `plausible('Feedback', {props: {vote: 'yes'}})`. */
export type Plausible = ((name: string, options?: {props?: EventProps}) => void) & {q?: unknown[][]};

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

/** A custom event for the page the reader is on. */
export function buildEvent(
  name: string,
  state: Pick<PageState, 'href' | 'referrer'>,
  domain: string,
  props?: EventProps,
): CustomEvent {
  return {name, url: pageUrl(state.href), domain, referrer: referrerOrigin(state.referrer), ...(props ? {props} : {})};
}

/** Paths that are files to download rather than pages (the OpenAPI document, the Postman files…). */
const DOWNLOAD = /\.(?:ya?ml|json|zip|pdf|csv)$/i;

/**
 * The event a followed link makes, by Plausible's conventions, or null for an ordinary page link:
 * `File Download` for a file (or a link with a `download` attribute), `Outbound Link: Click` for
 * another host. The URL is sent without its query string and hash.
 */
export function linkEvent(href: string, host: string, download: boolean): [string, EventProps] | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol)) return null;
  const props = {url: url.origin + url.pathname};
  if (download || DOWNLOAD.test(url.pathname)) return ['File Download', props];
  return url.host === host ? null : ['Outbound Link: Click', props];
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
  const nav = navigator as Navigator & {globalPrivacyControl?: boolean};
  let lastPath: string | undefined;

  /** Checks consent at each event (the reader may change it), then hands the event over. */
  const send = (build: (state: PageState) => PageViewEvent | CustomEvent): void => {
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
    sendEvent(collectorUrl, JSON.stringify(build(state)), {
      sendBeacon: nav.sendBeacon && nav.sendBeacon.bind(nav),
      fetch: window.fetch && window.fetch.bind(window),
    });
  };

  // One view per path: hash changes, replaceState and a second event for the same path do not count.
  const track = (): void => {
    try {
      if (location.pathname === lastPath) return;
      lastPath = location.pathname;
      send((state) => buildPayload(state, domain));
    } catch {
      // never throw into the page
    }
  };

  const trackEvent: Plausible = (name, options) => {
    try {
      send((state) => buildEvent(String(name), state, domain, options && options.props));
    } catch {
      // never throw into the page
    }
  };

  // Calls queued before this script ran (track.ts), then the real function.
  const w = window as unknown as {plausible?: Plausible};
  const queued = (w.plausible && w.plausible.q) || [];
  w.plausible = trackEvent;
  queued.forEach((args) => trackEvent(...(args as Parameters<Plausible>)));

  // Left and middle clicks on links: outbound and download links (one delegated listener).
  const onClick = (event: MouseEvent): void => {
    try {
      if (event.type === 'auxclick' && event.button !== 1) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      const found = link && linkEvent((link as HTMLAnchorElement).href, location.host, link.hasAttribute('download'));
      if (found) trackEvent(found[0], {props: found[1]});
    } catch {
      // never throw into the page
    }
  };
  addEventListener('click', onClick, true);
  addEventListener('auxclick', onClick, true);

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
