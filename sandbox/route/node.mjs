// Load with `node --import <absolute path of this file>`: fetch() calls to the public sandbox API
// origin (ACME_SANDBOX_API_ORIGIN, default https://sandbox.api.example.com) go to the local
// sandbox (ACME_SANDBOX_ORIGIN, e.g. http://127.0.0.1:4010) instead, path and query kept, so the
// samples run unchanged. Plain Node 18.20+ JavaScript on purpose (no TypeScript, no newer APIs).
const apiOrigin = originOf(process.env.ACME_SANDBOX_API_ORIGIN || 'https://sandbox.api.example.com');
const target = (process.env.ACME_SANDBOX_ORIGIN || '').replace(/\/+$/, '');

function originOf(text) {
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}

/** The local URL for a URL on the public sandbox API, or undefined for any other URL. */
function reroute(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.origin === apiOrigin ? target + parsed.pathname + parsed.search : undefined;
}

if (target && apiOrigin && typeof globalThis.fetch === 'function') {
  const originalFetch = globalThis.fetch;
  globalThis.fetch = async function fetch(input, init) {
    if (typeof Request === 'function' && input instanceof Request) {
      const local = reroute(input.url);
      if (!local) {
        return originalFetch(input, init);
      }
      // Rebuild the request for the new URL; reading the body first avoids stream `duplex` rules.
      const body = input.method === 'GET' || input.method === 'HEAD' ? undefined : await input.arrayBuffer();
      const copy = new Request(local, {
        method: input.method,
        headers: input.headers,
        body,
        redirect: input.redirect,
        signal: input.signal,
      });
      return originalFetch(copy, init);
    }
    const local = typeof input === 'string' || input instanceof URL ? reroute(String(input)) : undefined;
    return originalFetch(local || input, init);
  };
}
