// A small implementation of @acme-connect/sdk (declared in index.d.ts), for running the docs'
// JavaScript samples in CI. Plain ESM for Node 18.20+: global fetch, crypto from node:crypto.
import {createHmac, randomUUID, timingSafeEqual} from 'node:crypto';

const ENVIRONMENTS = {
  sandbox: {apiBase: 'https://sandbox.api.example.com/v1', tokenUrl: 'https://sandbox.api.example.com/oauth/token'},
  live: {apiBase: 'https://api.example.com/v1', tokenUrl: 'https://api.example.com/oauth/token'},
};

const TOKEN_REFRESH_LEAD_MS = 60_000;
const RETRY_BASE_MS = 500;
const WEBHOOK_TOLERANCE_S = 300;

// Errors ------------------------------------------------------------------------------------

export class AcmeConnectError extends Error {
  constructor(message, {status = null, code = null, requestId = null, retry = null} = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.retry = retry;
    this.idempotencyKey = null;
  }
}
export class AuthenticationError extends AcmeConnectError {}
export class PermissionError extends AcmeConnectError {}
export class InvalidRequestError extends AcmeConnectError {}
export class NotFoundError extends AcmeConnectError {}
export class ConflictError extends AcmeConnectError {}
export class InsufficientBalanceError extends AcmeConnectError {}
export class RateLimitError extends AcmeConnectError {
  constructor(message, init = {}) {
    super(message, init);
    this.retryAfter = init.retryAfter ?? null;
  }
}
export class APIError extends AcmeConnectError {}
export class ConnectionError extends AcmeConnectError {}
export class SignatureVerificationError extends AcmeConnectError {}

const ERROR_BY_STATUS = {
  400: InvalidRequestError,
  401: AuthenticationError,
  402: InsufficientBalanceError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  422: InvalidRequestError,
  429: RateLimitError,
};

/** Seconds from a `Retry-After` header (delta-seconds or HTTP-date), or null. */
function retryAfterSeconds(value) {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** `Retry-After` of any failed response (only RateLimitError exposes it). */
const retryAfterOf = new WeakMap();

/**
 * The API's error codes the token endpoint answers in its RFC 6749 format, which has no `retry`
 * field: their policy as the API's error table gives it (the SDK's tests check it against the model).
 */
const TOKEN_ENDPOINT_API_POLICIES = Object.freeze({rate_limited: 'same_key', environment_mismatch: 'never'});

/** The four retry policies an error answer's `retry` field can name (the API's behaviour model). */
const RETRY_POLICIES = new Set(['same_key', 'after_fix', 'new_token', 'never']);

/**
 * The retry policy of a failed answer: the `retry` field the API puts in every error envelope.
 * An answer without one did not come from the API's error handling: a 5xx of that kind (a proxy's
 * or gateway's page) counts as `same_key`, like a network error; anything else is not retried.
 */
function retryPolicy(status, envelope) {
  if (RETRY_POLICIES.has(envelope?.retry)) return envelope.retry;
  return status >= 500 ? 'same_key' : null;
}

/** Maps the API error envelope (or an RFC 6749 token error) to its class, by HTTP status. */
function errorFromResponse(response, text) {
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the status alone says what went wrong.
  }
  const envelope = body?.error;
  const code = typeof envelope === 'string' ? envelope : (envelope?.code ?? null);
  const message = envelope?.message ?? body?.error_description ?? `HTTP ${response.status}`;
  const requestId = envelope?.request_id ?? response.headers.get('x-request-id');
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  const retry = retryPolicy(response.status, typeof envelope === 'object' ? envelope : null);
  const ErrorClass = ERROR_BY_STATUS[response.status] ?? APIError;
  const error = new ErrorClass(message, {status: response.status, code, requestId, retryAfter, retry});
  retryAfterOf.set(error, retryAfter);
  return error;
}

// camelCase in the SDK, snake_case on the wire (`metadata` keys are the partner's own) -----------

const toCamel = (key) => key.replace(/_([a-z0-9])/g, (_match, char) => char.toUpperCase());
const toSnake = (key) => key.replace(/[A-Z]/g, (char) => `_${char.toLowerCase()}`);

function convertKeys(value, convert) {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [convert(key), key === 'metadata' ? item : convertKeys(item, convert)]),
  );
}

/** A path segment; ICCIDs and ids must be strings (a JS number corrupts an ICCID). */
function segment(value, name) {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string`);
  return encodeURIComponent(value);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Webhooks ----------------------------------------------------------------------------------

function readHeader(headers, name) {
  if (typeof headers?.get === 'function') return headers.get(name) ?? undefined;
  const key = Object.keys(headers ?? {}).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

function constructEvent(rawBody, headers, secret, {now} = {}) {
  const fail = (message) => new SignatureVerificationError(message);
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw fail('Pass the raw request body (string or bytes), not parsed JSON');
  }
  if (typeof secret !== 'string' || secret === '') throw fail('Missing webhook signing secret');
  const timestamp = readHeader(headers, 'x-webhook-timestamp');
  if (!timestamp || !/^\d+$/.test(timestamp)) throw fail('Missing or malformed X-Webhook-Timestamp header');
  const signatures = (readHeader(headers, 'x-webhook-signature') ?? '')
    .split(/[\s,]+/)
    .filter((value) => value.startsWith('v1='))
    .map((value) => value.slice(3));
  if (signatures.length === 0) throw fail('Missing X-Webhook-Signature header (v1=<hex>)');

  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const valid = signatures.some(
    (hex) => /^[0-9a-f]{64}$/i.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), expected),
  );
  if (!valid) throw fail('No X-Webhook-Signature value matches the body and secret');
  const clock = now instanceof Date ? now.getTime() : Date.now();
  if (Math.abs(clock / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_S) {
    throw fail(`X-Webhook-Timestamp is more than ${WEBHOOK_TOLERANCE_S} s from the ${now ? 'given' : 'local'} clock`);
  }
  try {
    return convertKeys(JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)), toCamel);
  } catch {
    throw fail('The body is not valid JSON');
  }
}

// Client ------------------------------------------------------------------------------------

export class AcmeConnect {
  #config;
  #token = null;
  #tokenRequest = null;

  constructor({clientId, clientSecret, environment, timeoutMs = 30_000, maxRetries = 2} = {}) {
    if (!clientId || !clientSecret) throw new TypeError('clientId and clientSecret are required');
    const hosts = ENVIRONMENTS[environment];
    if (!hosts) throw new TypeError(`environment must be 'sandbox' or 'live', not ${JSON.stringify(environment)}`);
    this.#config = {clientId, clientSecret, timeoutMs, maxRetries, ...hosts};

    const request = (method, path, options) => this.#request(method, path, options);
    this.packages = {
      list: (params = {}) => ({[Symbol.asyncIterator]: () => paginate(request, '/packages', params)}),
      retrieve: async (id) => request('GET', `/packages/${segment(id, 'id')}`),
    };
    this.orders = {
      create: async (params, {idempotencyKey} = {}) => request('POST', '/orders', {body: params, idempotencyKey}),
      retrieve: async (orderId) => request('GET', `/orders/${segment(orderId, 'orderId')}`),
    };
    this.esims = {
      retrieve: async (iccid) => request('GET', `/esims/${segment(iccid, 'iccid')}`),
      getUsage: async (iccid) => request('GET', `/esims/${segment(iccid, 'iccid')}/usage`),
    };
    this.topups = {
      create: async (iccid, params, {idempotencyKey} = {}) =>
        request('POST', `/esims/${segment(iccid, 'iccid')}/topups`, {body: params, idempotencyKey}),
    };
    this.refunds = {
      create: async (params, {idempotencyKey} = {}) => request('POST', '/refunds', {body: params, idempotencyKey}),
    };
    this.webhooks = {constructEvent};
  }

  /**
   * One API call, retried as the error answer's `retry` says: `same_key` (and network errors,
   * timeouts) up to maxRetries times with backoff and the same Idempotency-Key, so a retry that
   * meets `idempotency_in_progress` usually ends with the first attempt's result; `new_token` once
   * with a new token; `after_fix` and `never` are thrown at once.
   */
  async #request(method, path, {query, body, idempotencyKey} = {}) {
    const url = new URL(this.#config.apiBase + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(toSnake(key), String(value));
    }
    const headers = {Accept: 'application/json'};
    if (method === 'POST') headers['Idempotency-Key'] = idempotencyKey ?? randomUUID();
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const payload = body === undefined ? undefined : JSON.stringify(convertKeys(body, toSnake));

    for (let attempt = 0, renewed = false; ;) {
      let token = null;
      try {
        token = await this.#accessToken();
        const data = await this.#send(url, {
          method,
          headers: {...headers, Authorization: `Bearer ${token}`},
          body: payload,
        });
        return convertKeys(data, toCamel);
      } catch (error) {
        if (error?.retry === 'new_token' && !renewed) {
          // The renewal is not one of the maxRetries. Drop only the token that failed: a concurrent
          // call may already have fetched the next one.
          renewed = true;
          if (this.#token?.value === token) this.#token = null;
          continue;
        }
        // A token carries the scopes its credential had when it was issued: drop it, so the call
        // after the credential gains the scope gets a token that has it.
        if (error?.code === 'insufficient_scope' && this.#token?.value === token) this.#token = null;
        if (error?.retry !== 'same_key' || attempt >= this.#config.maxRetries) {
          // The key this POST sent, the caller's or the SDK's own: calling again with it cannot buy twice.
          if (method === 'POST' && error instanceof AcmeConnectError) error.idempotencyKey = headers['Idempotency-Key'];
          throw error;
        }
        const backoffMs = RETRY_BASE_MS * 2 ** attempt * (1 + Math.random() / 4);
        attempt += 1;
        await sleep(Math.max(backoffMs, (retryAfterOf.get(error) ?? 0) * 1000));
      }
    }
  }

  /** The cached token, fetched lazily (one request at a time) and renewed 60 s before expiry. */
  #accessToken() {
    if (this.#token && Date.now() < this.#token.renewAt) return Promise.resolve(this.#token.value);
    this.#tokenRequest ??= this.#fetchToken().finally(() => {
      this.#tokenRequest = null;
    });
    return this.#tokenRequest;
  }

  async #fetchToken() {
    const {clientId, clientSecret, tokenUrl} = this.#config;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    const token = await this.#send(tokenUrl, {
      method: 'POST',
      headers: {Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded'},
      body: form.toString(),
    }).catch((error) => {
      // RFC 6749 answers carry no `retry`: the API's codes the token endpoint answers take the API's
      // policy; its own (`invalid_client`, …) have none.
      if (error.retry === null) error.retry = TOKEN_ENDPOINT_API_POLICIES[error.code] ?? null;
      throw error;
    });
    this.#token = {value: token.access_token, renewAt: Date.now() + token.expires_in * 1000 - TOKEN_REFRESH_LEAD_MS};
    return token.access_token;
  }

  /** One HTTP exchange with the timeout; returns the parsed JSON or throws the mapped error. */
  async #send(url, init) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#config.timeoutMs);
    let response;
    let text;
    try {
      response = await fetch(url, {...init, signal: controller.signal});
      text = await response.text();
    } catch (cause) {
      const message = controller.signal.aborted
        ? `Timed out after ${this.#config.timeoutMs} ms`
        : `Network error: ${cause?.message ?? cause}`;
      // Nothing was answered: the request may or may not have been done, so it is retried with the same key.
      throw Object.assign(new ConnectionError(message, {retry: 'same_key'}), {cause});
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) throw errorFromResponse(response, text);
    if (text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new APIError(`Invalid JSON in a ${response.status} response`, {
        status: response.status,
        requestId: response.headers.get('x-request-id'),
      });
    }
  }
}

/** Follows `next_cursor` until `has_more` is false; a `break` stops before the next page. */
async function* paginate(request, path, params) {
  let cursor;
  do {
    const page = await request('GET', path, {query: {...params, cursor}});
    yield* page.data;
    cursor = page.hasMore ? page.nextCursor : null;
  } while (cursor);
}
