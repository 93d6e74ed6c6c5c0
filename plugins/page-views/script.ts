/**
 * Browser half of page-views. Not a ClientModule, to stay out of the main bundle: index.ts compiles it alone to
 * build/js/page-views.js. No cookie, no storage, no identifier, nothing the reader types.
 */

import type {EventProps, Plausible} from '../../lib/analytics-track';
export type ViewportClass = 'desktop' | 'mobile';
export type ColorMode = 'light' | 'dark';

export type PageViewEvent = {
  name: 'pageview';
  url: string;
  domain: string;
  referrer: string | null;
  props: {viewport: ViewportClass; colorMode: ColorMode};
};

export type CustomEvent = {name: string; url: string; domain: string; referrer: string | null; props?: EventProps};

export type {EventProps, Plausible};

export type PageState = {href: string; referrer: string; width: number; theme: string | null};

export type Consent = {
  doNotTrack: unknown;
  globalPrivacyControl: unknown;
  hostname: string;
  allowLocalhost: boolean;
};

/** Docusaurus's mobile breakpoint. */
export function viewportClass(width: number): ViewportClass {
  return width > 996 ? 'desktop' : 'mobile';
}

export function pageUrl(href: string): string {
  const url = new URL(href);
  return url.origin + url.pathname;
}

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

const DOWNLOAD = /\.(?:ya?ml|json|zip|pdf|csv)$/i;

/** Plausible's event names for downloads and outbound links; null for an ordinary page link. */
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

  // Consent is checked at each event: the reader may change it.
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

  const w = window as unknown as {plausible?: Plausible};
  const queued = (w.plausible && w.plausible.q) || [];
  w.plausible = trackEvent;
  queued.forEach((args) => trackEvent(...(args as Parameters<Plausible>)));

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
