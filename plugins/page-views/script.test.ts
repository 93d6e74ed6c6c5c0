import {test, expect} from '@playwright/test';

import {
  buildEvent,
  buildPayload,
  isLocalHost,
  linkEvent,
  maySend,
  pageUrl,
  referrerOrigin,
  sendEvent,
  viewportClass,
} from './script';

const DOMAIN = 'docs.example.com';
const consent = {doNotTrack: null, globalPrivacyControl: undefined, hostname: DOMAIN, allowLocalhost: false};
/** What the events of the SDK page, reached from a Google search, carry besides their name and props. */
const FROM_SDK_PAGE = {url: `https://${DOMAIN}/basics/sdk`, domain: DOMAIN, referrer: 'https://www.google.com'};
const throwing = (error: Error) => () => {
  throw error;
};

test.describe('page-views payload', () => {
  test('builds a Plausible pageview event with only the allowed fields', () => {
    const href = 'https://docs.example.com/basics/sdk?q=my+secret+search&utm_source=x#install';
    const event = buildPayload(
      {href, referrer: 'https://www.google.com/search?q=acme+connect', width: 1280, theme: 'dark'},
      DOMAIN,
    );
    expect(event).toEqual({name: 'pageview', ...FROM_SDK_PAGE, props: {viewport: 'desktop', colorMode: 'dark'}});
    expect(JSON.stringify(event)).not.toMatch(/secret|utm_source|install|acme\+connect/);
  });

  test('classifies the viewport by the 996 px breakpoint, defaults the colour mode to light, keeps the referrer origin only, or null', () => {
    expect([996, 997, 375].map(viewportClass)).toEqual(['mobile', 'desktop', 'mobile']);
    const event = buildPayload({href: 'https://docs.example.com/', referrer: '', width: 400, theme: null}, 'd');
    expect(event.props).toEqual({viewport: 'mobile', colorMode: 'light'});
    expect(event.referrer).toBeNull();
    expect(referrerOrigin('https://example.org:8443/a/b?c=d#e')).toBe('https://example.org:8443');
    expect(['', 'not a url', 'about:blank'].map(referrerOrigin)).toEqual([null, null, null]);
    expect(pageUrl('http://docs.test:3104/a/b/?x=1#y')).toBe('http://docs.test:3104/a/b/');
  });
});

test.describe('custom events', () => {
  test('carry the name and props given, the page URL without query or hash, and no page-view props', () => {
    const state = {href: `https://${DOMAIN}/basics/sdk?q=secret#x`, referrer: 'https://www.google.com/search?q=x'};
    const props = {vote: 'yes', page: '/basics/sdk'};
    expect(buildEvent('Feedback', state, DOMAIN, props)).toEqual({name: 'Feedback', ...FROM_SDK_PAGE, props});
    expect(buildEvent('404', state, 'd')).not.toHaveProperty('props');
  });

  test('links: files are downloads, other hosts outbound, page links nothing (Plausible names, URL without query)', () => {
    // [href, the link has a download attribute, the event it sends (its URL: the href without query or hash)]
    const links: [string, boolean, string | null][] = [
      ['https://docs.example.com/openapi.yaml', false, 'File Download'],
      ['https://docs.example.com/postman/a.postman_collection.json?x=1', false, 'File Download'],
      ['https://docs.example.com/export', true, 'File Download'],
      ['https://help.example.com/a?token=s#b', false, 'Outbound Link: Click'],
      ['https://docs.example.com/basics/sdk', false, null],
      ['https://docs.example.com/basics/sdk.md', false, null],
      ['mailto:support@example.com', false, null],
      ['javascript:void(0)', false, null],
      ['not a url', false, null],
    ];
    for (const [href, download, name] of links) {
      expect(linkEvent(href, DOMAIN, download), href).toEqual(name && [name, {url: href.replace(/[?#].*/, '')}]);
    }
  });
});

test('page-views consent: sends only without Do Not Track, Global Privacy Control and off localhost', () => {
  expect(maySend(consent)).toBe(true);
  expect(maySend({...consent, doNotTrack: '1'})).toBe(false);
  expect(maySend({...consent, doNotTrack: 'yes'})).toBe(false);
  expect(maySend({...consent, doNotTrack: '0'})).toBe(true);
  expect(maySend({...consent, globalPrivacyControl: true})).toBe(false);
  expect(maySend({...consent, globalPrivacyControl: false})).toBe(true);
  for (const hostname of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '0.0.0.0', 'docs.localhost']) {
    expect(isLocalHost(hostname), hostname).toBe(true);
    expect(maySend({...consent, hostname}), hostname).toBe(false);
    expect(maySend({...consent, hostname, allowLocalhost: true}), hostname).toBe(true);
  }
  expect(isLocalHost('localhost.example.com')).toBe(false);
  expect(maySend({...consent, hostname: 'localhost', allowLocalhost: true, doNotTrack: '1'})).toBe(false);
});

test.describe('page-views transport', () => {
  test('uses sendBeacon when it accepts the event, else one fetch with keepalive (sendBeacon missing, refusing or throwing)', () => {
    const url = 'https://plausible.example.com/api/event';
    const beacon = ['beacon', url, '{"n":1}'];
    const sent = {method: 'POST', body: '{"n":1}', keepalive: true, mode: 'no-cors', credentials: 'omit'};
    const fetched = ['fetch', url, expect.objectContaining(sent)];
    for (const [what, sendBeacon, expected] of [
      ['accepting', () => true, [beacon]],
      ['missing', undefined, [fetched]],
      ['refusing', () => false, [beacon, fetched]],
      ['throwing', throwing(new TypeError('blocked')), [beacon, fetched]],
    ] as const) {
      // sendEvent swallows a failing fetch, so a fetch that threw could not fail this test: record it instead.
      const calls: unknown[][] = [];
      sendEvent(url, '{"n":1}', {
        sendBeacon: sendBeacon && ((...args) => (calls.push(['beacon', ...args]), sendBeacon())),
        fetch: async (input, init) => (calls.push(['fetch', String(input), init]), new Response(null, {status: 202})),
      });
      expect(calls, `sendBeacon ${what}`).toEqual(expected);
    }
  });

  test('never throws and leaves no unhandled rejection when the collector fails', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (const sender of [
        {fetch: () => Promise.reject(new TypeError('Failed to fetch'))},
        {fetch: throwing(new TypeError('bad'))},
        {},
      ]) {
        expect(() => sendEvent('/api/event', '{}', sender)).not.toThrow();
      }
      // Node reports unhandled rejections once microtasks drain: one event-loop turn (setImmediate) is enough.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
