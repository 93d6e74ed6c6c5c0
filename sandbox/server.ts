/**
 * A local sandbox of the API for running the docs' code samples. A front issues OAuth tokens,
 * checks scopes and rate limits and keeps a request log; Prism, on the served OpenAPI document,
 * validates every request (its verdict becomes `400 validation_failed`); the answer then comes
 * from the sandbox state (sandbox/state.ts), which remembers per credential and enforces the
 * documented rules. Prism's example answers remain only for an operation the state does not know
 * yet (a writer's new one), so a new operation works before anyone writes its state.
 */
import {spawn} from 'node:child_process';
import {randomInt} from 'node:crypto';
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import http, {type IncomingHttpHeaders, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';

import {parse} from 'yaml';

import {generateArtifacts} from '../lib/contract/artifacts';
import {
  listOperations,
  matchesTemplate,
  operationFacts,
  operationScopes,
  resolveRef,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
} from '../lib/contract/openapi';
import {ARTIFACTS, ENVIRONMENTS, LIMITS, SANDBOX, URLS} from '../src/constants/api';
import {answers, ERROR_CODES, errorCodesOf, errorRule, type OperationFacts} from '../src/constants/behaviour';
import {webhookEventExamples} from '../lib/contract/webhooks';
import {freePort} from '../lib/ports';
import {Refusal, SandboxState, type Delivery, type WebhookTransport} from './state';

export type SandboxCredential = {clientId: string; clientSecret: string; scopes: string[]};
export type SandboxLogEntry =
  | {kind: 'mark'; label: string}
  | {
      kind: 'request';
      method: string;
      /** The URL path, without the query. */
      path: string;
      /** The matched operation, e.g. "POST /v1/orders". */
      operation?: string;
      status: number;
      /** The error code of the body, if any (envelope `error.code` or OAuth `error`). */
      code?: string;
      /** One line on why it failed, e.g. the missing scopes. */
      detail?: string;
      /** Where the answer broke the contract (with `checkAnswer`). */
      answerProblems?: string[];
      /** When it was answered (ms since the epoch). */
      at: number;
      /** The answer's `Retry-After`, in seconds. */
      retryAfter?: number;
    };
export type Sandbox = {
  /** http://127.0.0.1:PORT */
  origin: string;
  log: SandboxLogEntry[];
  /** Every webhook delivery made so far, oldest first. */
  deliveries: readonly Delivery[];
  /** What the sandbox remembers (balance, transactions), and a wait for deliveries in flight. */
  state: SandboxState;
  /** Replaces the credentials; tokens survive only while their credential still grants their scopes. */
  setCredentials(credentials: SandboxCredential[]): void;
  close(): Promise<void>;
};

const ROOT = path.resolve(__dirname, '..');
/** `/oauth/token`: answered by this front, not by Prism. */
export const TOKEN_URL_PATH = new URL(ENVIRONMENTS.sandbox.tokenUrl).pathname;
const MARK_PREFIX = '/__sandbox/mark/';

/** The OpenAPI document exactly as the site serves it (ARTIFACTS.openapi), as text and parsed. */
export async function sandboxDocument(): Promise<{yaml: string; document: OpenApiDocument}> {
  const artifacts = await generateArtifacts(await readFile(path.join(ROOT, 'api/openapi.yaml'), 'utf8'));
  const yaml = artifacts.get(ARTIFACTS.openapi)!;
  return {yaml, document: parse(yaml) as OpenApiDocument};
}

/** Every OAuth scope the document defines. */
export function documentScopes(document: OpenApiDocument): string[] {
  const schemes = Object.values(document.components.securitySchemes ?? {}) as {
    flows?: Record<string, {scopes?: Record<string, string>}>;
  }[];
  const scopes = schemes.flatMap((scheme) =>
    Object.values(scheme.flows ?? {}).flatMap((flow) => Object.keys(flow.scopes ?? {})),
  );
  return [...new Set(scopes)];
}

type Route = {
  key: string;
  method: string;
  template: string;
  /** No token needed (`security: []`). */
  public: boolean;
  /** The scopes the token needs. */
  scopes: string[];
  operation: OpenApiOperation;
  /** What the behaviour model reads to tell the codes it answers. */
  facts: OperationFacts;
};

function routesOf(document: OpenApiDocument): Route[] {
  return (
    listOperations(document)
      .map(({method, path: template, operation}) => ({
        key: `${method} ${template}`,
        method,
        template,
        // An operation's own `security` replaces the document's.
        public: ((operation.security ?? document.security ?? []) as unknown[]).length === 0,
        scopes: operationScopes(document, operation),
        operation,
        facts: operationFacts(document, method, template, operation),
      }))
      // Literal segments win over parameters when both would match.
      .sort((a, b) => (a.template.match(/\{/g) ?? []).length - (b.template.match(/\{/g) ?? []).length)
  );
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomId = (length: number) => Array.from({length}, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');

type Violation = {location: string[]; message: string};

/**
 * Prism validates every request. When one fails it answers with the document's 422 or 400
 * response (its example, here another error) and lists the problems in the `sl-violations`
 * header; only when the operation documents neither does it send its own problem+json with a
 * `validation` list.
 */
function requestViolations(headers: IncomingHttpHeaders, body: unknown): Violation[] {
  let listed: unknown = (body as {validation?: unknown} | undefined)?.validation;
  if (typeof headers['sl-violations'] === 'string') {
    try {
      listed = JSON.parse(headers['sl-violations']);
    } catch {
      // Too long: Prism truncated it; the body's list (if any) is used instead.
    }
  }
  return (Array.isArray(listed) ? (listed as {location?: unknown[]; severity?: string; message?: string}[]) : [])
    .filter((violation) => violation.severity === 'Error' && (violation.location ?? [])[0] !== 'response')
    .map((violation) => ({
      location: (violation.location ?? []).map(String).filter((part, index) => !(index === 0 && part === 'request')),
      message: violation.message ?? 'Invalid request',
    }));
}

/** The offending field: `quantity`, `metadata.trip`, `Idempotency-Key`, or null if Prism does not say. */
function violationParam(
  violation: Violation,
  operation: OpenApiOperation | undefined,
  document: OpenApiDocument,
): string | null {
  const [section, ...rest] = violation.location;
  const name = rest.length > 0 ? rest.join('.') : /required property '([^']+)'/.exec(violation.message)?.[1];
  if (!name) {
    return null;
  }
  if (section === 'header') {
    // Prism reports header names in lower case; use the name the document gives.
    const declared = (operation?.parameters ?? []).map((parameter) =>
      resolveRef<OpenApiParameter>(document, parameter),
    );
    return (
      declared.find((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === name.toLowerCase())
        ?.name ?? name
    );
  }
  return name;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'proxy-connection',
]);

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type Prism = {port: number; stop(): Promise<void>};

/** `prism mock` of `documentFile` on a free loopback port; resolves once it listens. */
export async function startPrism(documentFile: string): Promise<Prism> {
  const port = await freePort();
  // Single process, so that killing it stops the mock (Prism forks when NODE_ENV=production).
  const child = spawn(
    path.join(ROOT, 'node_modules/.bin/prism'),
    ['mock', '--host', '127.0.0.1', '--port', String(port), '--multiprocess=false', documentFile],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // Prism logs every request: keep reading (a full pipe would stall it) but keep only the tail.
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 60 s:\n${output.join('')}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      output.splice(0, output.length - 50);
      if (chunk.toString().includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}):\n${output.join('')}`));
    });
  });
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

export type SandboxOptions = {
  credentials: SandboxCredential[];
  port?: number;
  /** Per credential; default the documented sandbox limit. */
  requestsPerMinute?: number;
  /** The rate limits' window, default one minute; tests shorten it so a reader's backoff ends in seconds. */
  rateLimitWindowMs?: number;
  /**
   * Tests: every rate-limit refusal answers this `Retry-After` and empties its window that long after the
   * refusal, so a backoff test waits exactly that, however slow the machine (default: the window's own time).
   */
  retryAfterSeconds?: number;
  /** How webhook deliveries are sent; default an HTTP POST with the documented 10 s limit. */
  webhookTransport?: WebhookTransport;
  /** Problems with an answer (tests pass a contract validator); each is logged with the request. */
  checkAnswer?: (answer: {
    operation: string;
    status: number;
    headers: Record<string, string>;
    body: unknown;
  }) => string[];
};

/** The documented delivery: POST, a reply within the response limit counts. */
const fetchTransport: WebhookTransport = async (url, headers, body) => {
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(LIMITS.webhookResponseSeconds * 1000),
  });
  return response.status;
};

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const {yaml, document} = await sandboxDocument();
  const routes = routesOf(document);
  const state = new SandboxState(options.webhookTransport ?? fetchTransport, Date.now, webhookEventExamples(document));
  const requestsPerMinute = options.requestsPerMinute ?? LIMITS.sandboxRequestsPerMinute;
  const windowMs = options.rateLimitWindowMs ?? 60_000;
  /** Request times per credential (API calls) and per client (token requests), for the sliding one-minute windows. */
  const recentCalls = new Map<string, number[]>();
  const recentTokenRequests = new Map<string, number[]>();
  /** Counts this request in `clientId`'s window; answers the seconds to wait when it is over `limit`. */
  function overLimit(windows: Map<string, number[]>, clientId: string, limit: number): number | undefined {
    const now = Date.now();
    const times = (windows.get(clientId) ?? []).filter((time) => now - time < windowMs);
    windows.set(clientId, times);
    if (times.length >= limit) {
      if (options.retryAfterSeconds === undefined) return Math.max(1, Math.ceil((times[0]! + windowMs - now) / 1000));
      windows.set(clientId, times.fill(now + options.retryAfterSeconds * 1000 - windowMs));
      return options.retryAfterSeconds;
    }
    times.push(now);
    return undefined;
  }
  function rateLimitHeaders(clientId: string): Record<string, string> {
    const times = recentCalls.get(clientId) ?? [];
    const reset =
      times.length > 0 ? Math.max(1, Math.ceil((times[0]! + windowMs - Date.now()) / 1000)) : windowMs / 1000;
    return {
      'X-RateLimit-Limit': String(requestsPerMinute),
      'X-RateLimit-Remaining': String(Math.max(0, requestsPerMinute - times.length)),
      'X-RateLimit-Reset': String(reset),
    };
  }

  const directory = await mkdtemp(path.join(os.tmpdir(), 'acme-sandbox-'));
  const documentFile = path.join(directory, 'openapi.yaml');
  await writeFile(documentFile, yaml);
  let prism: Prism;
  try {
    prism = await startPrism(documentFile);
  } catch (error) {
    await rm(directory, {recursive: true, force: true});
    throw error;
  }
  const pooled = new http.Agent({keepAlive: true});

  let credentials = options.credentials;
  const tokens = new Map<string, {clientId: string; scopes: string[]; expiresAt: number}>();
  const log: SandboxLogEntry[] = [];

  function record(
    method: string,
    urlPath: string,
    route: Route | undefined,
    status: number,
    body: unknown,
    detail?: string,
    headers: Record<string, string | string[]> = {},
  ) {
    const flatHeaders = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    const answerProblems = route && options.checkAnswer?.({operation: route.key, status, headers: flatHeaders, body});
    const error = (body as {error?: unknown} | undefined)?.error;
    const code = typeof error === 'string' ? error : (error as {code?: string} | undefined)?.code;
    const reason =
      detail ??
      (error as {message?: string} | undefined)?.message ??
      (body as {error_description?: string} | undefined)?.error_description;
    log.push({
      kind: 'request',
      method,
      path: urlPath,
      ...(route && {operation: route.key}),
      status,
      ...(code && {code}),
      ...(status >= 400 && reason && {detail: reason}),
      ...(answerProblems?.length && {answerProblems}),
      at: Date.now(),
      ...(flatHeaders['retry-after'] !== undefined && {retryAfter: Number(flatHeaders['retry-after'])}),
    });
  }

  function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    response.writeHead(status, {'Content-Type': 'application/json', ...headers});
    response.end(JSON.stringify(body));
  }

  /** The documented error envelope (all errors but the token endpoint's), with the model's retry policy. */
  const envelope = (code: string, message: string, requestId: string, param: string | null = null) => ({
    error: {
      code,
      message,
      param,
      request_id: requestId,
      doc_url: `${URLS.errorsDocBase}#${code}`,
      retry: errorRule(code).retry,
    },
  });

  /** POST /oauth/token: client credentials in the form body or HTTP Basic (RFC 6749 §2.3.1, §4.4). */
  function issueToken(
    request: IncomingMessage,
    raw: Buffer,
  ): {status: number; body: object; headers?: Record<string, string>} {
    const oauthError = (status: number, error: string, description: string, headers?: Record<string, string>) => ({
      status,
      body: {error, error_description: description},
      headers,
    });
    if (request.method !== 'POST') {
      return oauthError(405, 'invalid_request', 'Use POST.', {Allow: 'POST'});
    }
    if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) {
      return oauthError(400, 'invalid_request', 'Send the fields as application/x-www-form-urlencoded.');
    }
    const form = new URLSearchParams(raw.toString('utf8'));
    const basic = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? '');
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    if (basic) {
      if (clientSecret !== null) {
        return oauthError(
          400,
          'invalid_request',
          'Send the client secret either in the body or with HTTP Basic, not both.',
        );
      }
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      // Basic credentials are form-encoded before base64 (RFC 6749 §2.3.1).
      const unescape = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
      try {
        clientId = unescape(colon < 0 ? decoded : decoded.slice(0, colon));
        clientSecret = unescape(colon < 0 ? '' : decoded.slice(colon + 1));
      } catch {
        return oauthError(400, 'invalid_request', 'Malformed HTTP Basic credentials.');
      }
    }
    const challenge = basic ? {'WWW-Authenticate': 'Basic realm="oauth"'} : undefined;
    const grantType = form.get('grant_type');
    if (!grantType) {
      return oauthError(400, 'invalid_request', 'grant_type is required.');
    }
    if (grantType !== 'client_credentials') {
      return oauthError(400, 'unsupported_grant_type', `Only client_credentials is supported, not ${grantType}.`);
    }
    if (!clientId || !clientSecret) {
      return oauthError(
        401,
        'invalid_client',
        'Client authentication failed: send client_id and client_secret.',
        challenge,
      );
    }
    if (clientId.startsWith(ENVIRONMENTS.live.clientIdPrefix)) {
      // A live credential at the sandbox token URL: the API's code, in the token endpoint's RFC 6749 format.
      return oauthError(
        errorRule('environment_mismatch').status,
        'environment_mismatch',
        'This is a Live client ID; use it at the Live token URL.',
      );
    }
    const credential = credentials.find((candidate) => candidate.clientId === clientId);
    if (!credential || credential.clientSecret !== clientSecret) {
      return oauthError(
        401,
        'invalid_client',
        'Client authentication failed: unknown client or wrong secret.',
        challenge,
      );
    }
    const wait = overLimit(recentTokenRequests, credential.clientId, LIMITS.tokenRequestsPerMinute);
    if (wait !== undefined) {
      // RFC 6749 has no rate-limit code: the contract adds `rate_limited`, the API envelope's code, in its format.
      return oauthError(
        429,
        'rate_limited',
        `At most ${LIMITS.tokenRequestsPerMinute} token requests per minute per client; cache the token (it lasts ${LIMITS.tokenLifetimeSeconds} s). Retry in ${wait} s.`,
        {'Retry-After': String(wait)},
      );
    }
    const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const notGranted = requested.filter((scope) => !credential.scopes.includes(scope));
    if (notGranted.length > 0) {
      return oauthError(400, 'invalid_scope', `Not granted to this client: ${notGranted.join(' ')}.`);
    }
    const scopes = requested.length > 0 ? [...new Set(requested)] : credential.scopes;
    const accessToken = `at_test_${randomId(32)}`;
    tokens.set(accessToken, {
      clientId: credential.clientId,
      scopes,
      expiresAt: Date.now() + LIMITS.tokenLifetimeSeconds * 1000,
    });
    return {
      status: 200,
      body: {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: LIMITS.tokenLifetimeSeconds,
        scope: scopes.join(' '),
      },
      headers: {'Cache-Control': 'no-store', Pragma: 'no-cache'},
    };
  }

  /** What the state needs of a request to answer it: its operation, parameters, body, key and who sent it. */
  function callOf(
    request: IncomingMessage,
    url: URL,
    route: Route,
    ids: {requestId: string; clientId: string},
    body: unknown,
  ) {
    const idempotencyKey = request.headers['idempotency-key'];
    return {
      operation: route.key,
      params: templateParams(url.pathname, route.template),
      query: url.searchParams,
      body: body as Record<string, unknown> | undefined,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
      clientId: ids.clientId,
      requestId: ids.requestId,
    };
  }

  /**
   * Refuses a request of an operation the state runs, through the state: the Idempotency-Key then
   * stores and replays the refusal as the behaviour model says, like the operation's own errors.
   */
  async function refuseThroughState(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    route: Route,
    ids: {requestId: string; clientId: string},
    body: unknown,
    refusal: Refusal,
    unparsedBody?: string,
  ) {
    const result = await state.answer({...callOf(request, url, route, ids, body), unparsedBody, refusedWith: refusal});
    const sent = {'X-Request-Id': ids.requestId, ...rateLimitHeaders(ids.clientId), ...result.headers};
    sendJson(response, result.status, result.body, sent);
    return record(request.method!, url.pathname, route, result.status, result.body, undefined, sent);
  }

  /**
   * Asks Prism to validate the request (its verdict becomes `400 validation_failed`), then answers
   * from the sandbox state, or relays Prism's example for an operation the state does not know.
   */
  async function forward(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    raw: Buffer,
    route: Route,
    requestId: string,
    clientId: string,
    body: unknown,
  ) {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      // Prism answers uncompressed bodies; this front must read them.
      if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'accept-encoding' && name !== 'prefer') {
        headers[name] = value;
      }
    }
    // The client's own framing headers are dropped: the body is sent whole.
    headers['content-length'] = String(raw.length);
    // Prism only validates, so resending is harmless. A kept-alive socket that Prism closed while it sat idle
    // fails with ECONNRESET on reuse (a race Node's docs describe). Sockets opened by one burst go idle, and are
    // closed, together: the request is sent again, once, on a new connection, never on another pooled socket.
    const ask = (agent: http.Agent | false) =>
      new Promise<{status: number; headers: IncomingHttpHeaders; body: Buffer}>((resolve, reject) => {
        const upstream = http.request(
          {
            host: '127.0.0.1',
            port: prism.port,
            method: request.method,
            path: url.pathname + url.search,
            headers,
            agent,
          },
          (reply) => {
            readBody(reply).then(
              (body) => resolve({status: reply.statusCode ?? 502, headers: reply.headers, body}),
              reject,
            );
          },
        );
        upstream.on('error', reject);
        upstream.end(raw.length > 0 ? raw : undefined);
      });
    const answer = await ask(pooled).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') return ask(false);
      throw error;
    });

    const text = answer.body.toString('utf8');
    const json = parseJson(text);
    const violations = requestViolations(answer.headers, json);
    const limitHeaders = rateLimitHeaders(clientId);
    if (violations.length > 0) {
      const param = violationParam(violations[0]!, route.operation, document);
      const message = violations.map((violation) => violation.message.replace(/\.?$/, '.')).join(' ');
      // A refused key is no key to store an answer under.
      if (state.handles(route.key) && param !== 'Idempotency-Key') {
        const refusal = new Refusal(400, 'validation_failed', message, param);
        return refuseThroughState(request, response, url, route, {requestId, clientId}, body, refusal);
      }
      const refusal = envelope('validation_failed', message, requestId, param);
      const sent = {'X-Request-Id': requestId, ...limitHeaders};
      sendJson(response, 400, refusal, sent);
      return record(request.method!, url.pathname, route, 400, refusal, undefined, sent);
    }
    if (/problem\+json/.test(answer.headers['content-type'] ?? '')) {
      // Any other complaint of Prism's own (an unacceptable `Accept` …).
      const problem = json as {status?: number; title?: string; detail?: string} | undefined;
      const status = problem?.status ?? answer.status;
      const body = envelope(
        status >= 500 ? 'internal_error' : 'invalid_request',
        `${problem?.title ?? 'Mock error'}: ${problem?.detail ?? text}`,
        requestId,
      );
      const sent = {'X-Request-Id': requestId, ...limitHeaders};
      sendJson(response, status, body, sent);
      return record(request.method!, url.pathname, route, status, body, undefined, sent);
    }
    const deprecatedUsed = (route.operation.parameters ?? [])
      .map((parameter) => resolveRef<OpenApiParameter & {deprecated?: boolean}>(document, parameter))
      .some((parameter) => parameter.deprecated && parameter.in === 'query' && url.searchParams.has(parameter.name));
    const deprecation: Record<string, string> =
      deprecatedUsed || route.operation.deprecated
        ? {Deprecation: 'true', Sunset: String(answer.headers.sunset ?? '')}
        : {};

    if (state.handles(route.key)) {
      const result = await state.answer(callOf(request, url, route, {requestId, clientId}, body));
      const answerHeaders = {
        'X-Request-Id': requestId,
        ...limitHeaders,
        ...(result.status < 400 ? deprecation : {}),
        ...result.headers,
      };
      if (result.body === undefined) {
        response.writeHead(result.status, answerHeaders).end();
      } else {
        sendJson(response, result.status, result.body, answerHeaders);
      }
      return record(request.method!, url.pathname, route, result.status, result.body, undefined, answerHeaders);
    }

    const relayed: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'sl-violations') {
        relayed[name] = value;
      }
    }
    // Prism sends every documented header with its example: keep only those this call earned.
    for (const name of [
      'idempotent-replayed',
      'deprecation',
      'sunset',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
    ]) {
      delete relayed[name];
    }
    Object.assign(relayed, limitHeaders, deprecation);
    // Examples all carry the same request id; give each request its own, in header and body alike.
    relayed['x-request-id'] = requestId;
    let relayedBody: Buffer | string = answer.body;
    const error = (json as {error?: {request_id?: unknown}} | undefined)?.error;
    if (error && typeof error === 'object' && 'request_id' in error) {
      error.request_id = requestId;
      relayedBody = JSON.stringify(json);
    }
    response.writeHead(answer.status, relayed);
    response.end(relayedBody);
    record(request.method!, url.pathname, route, answer.status, json, undefined, relayed);
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://sandbox.invalid');
    const method = request.method ?? 'GET';
    const raw = await readBody(request);
    const requestId = `req_${randomId(16)}`;

    if (url.pathname.startsWith(MARK_PREFIX) && method === 'POST') {
      let label = url.pathname.slice(MARK_PREFIX.length);
      try {
        label = decodeURIComponent(label);
      } catch {
        // Keep it as sent.
      }
      log.push({kind: 'mark', label});
      response.writeHead(204).end();
      return;
    }

    const route = routes.find(
      (candidate) => candidate.method === method && safeMatch(url.pathname, candidate.template),
    );
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    const token = bearer ? tokens.get(bearer[1]!) : undefined;
    // An error to a caller its token names carries that caller's rate-limit window, as every answer to it does; a
    // 401 names no caller, so it has none.
    const callerWindow = (status: number): Record<string, string> =>
      status !== 401 && token && token.expiresAt > Date.now() ? rateLimitHeaders(token.clientId) : {};
    const fail = (
      status: number,
      code: string,
      message: string,
      detail?: string,
      headers: Record<string, string> = {},
    ) => {
      const body = envelope(code, message, requestId);
      const sent = {'X-Request-Id': requestId, ...callerWindow(status), ...headers};
      sendJson(response, status, body, sent);
      record(method, url.pathname, route, status, body, detail, sent);
    };

    if (url.pathname === TOKEN_URL_PATH) {
      const result = issueToken(request, raw);
      const sent = {'X-Request-Id': requestId, ...result.headers};
      sendJson(response, result.status, result.body, sent);
      return record(method, url.pathname, route, result.status, result.body, undefined, sent);
    }

    if (!route) {
      const allowed = routes
        .filter((candidate) => safeMatch(url.pathname, candidate.template))
        .map((candidate) => candidate.method);
      return fail(
        404,
        'resource_not_found',
        `No API operation matches ${method} ${url.pathname}${allowed.length > 0 ? ` (this path takes ${allowed.join(', ')})` : ''}.`,
      );
    }

    let clientId = 'public';
    if (!route.public) {
      const challenge = {'WWW-Authenticate': 'Bearer'};
      if (!bearer) {
        return fail(401, 'missing_token', 'Send an access token: Authorization: Bearer <token>.', undefined, challenge);
      }
      if (!token) {
        return fail(401, 'invalid_token', 'The access token is unknown or revoked.', undefined, challenge);
      }
      if (token.expiresAt <= Date.now()) {
        return fail(401, 'token_expired', 'The access token has expired.', undefined, challenge);
      }
      const missing = route.scopes.filter((scope) => !token.scopes.includes(scope));
      if (missing.length > 0) {
        const named = missing.length === 1 ? `the ${missing[0]} scope` : `the scopes ${missing.join(', ')}`;
        return fail(403, 'insufficient_scope', `This token lacks ${named}.`, `missing scopes: ${missing.join(' ')}`);
      }
      clientId = token.clientId;
    }
    const wait = overLimit(recentCalls, clientId, requestsPerMinute);
    if (wait !== undefined) {
      return fail(
        429,
        'rate_limited',
        `The sandbox allows ${requestsPerMinute} requests per minute per credential; retry in ${wait} s.`,
        undefined,
        {'Retry-After': String(wait), ...rateLimitHeaders(clientId)},
      );
    }

    const forced = request.headers[SANDBOX.errorHeader.toLowerCase()];
    if (typeof forced === 'string') {
      // Answered here, before the state: the operation does not run, so nothing is stored under a key.
      const rule = ERROR_CODES.find((candidate) => candidate.code === forced.trim());
      // A code the model says this operation never answers is refused too: a forced answer is one Live could give.
      if (!rule || !answers(rule, route.facts)) {
        const forceable = errorCodesOf(route.facts)
          .map(({code}) => code)
          .join(', ');
        const body = envelope(
          'validation_failed',
          `${rule ? `${route.key} never answers ${rule.code}` : `${SANDBOX.errorHeader} names no error code: ${forced}`}; it takes one of: ${forceable}.`,
          requestId,
          SANDBOX.errorHeader,
        );
        const sent = {'X-Request-Id': requestId, ...rateLimitHeaders(clientId)};
        sendJson(response, 400, body, sent);
        return record(method, url.pathname, route, 400, body, undefined, sent);
      }
      const headers: Record<string, string> = {
        ...(rule.status === 401 && {'WWW-Authenticate': 'Bearer'}),
        ...((rule.status === 429 || rule.status === 503) && {'Retry-After': '1'}),
      };
      return fail(rule.status, rule.code, `${rule.summary} (forced by ${SANDBOX.errorHeader}).`, undefined, headers);
    }

    // An operation without a request body ignores one sent anyway, as the model says (only those with a body answer
    // invalid_request): nothing of it is read or forwarded.
    const sentBody = route.facts.takesBody ? raw : Buffer.alloc(0);
    const contentType = request.headers['content-type'] ?? '';
    const body = /json/i.test(contentType) && sentBody.length > 0 ? parseJson(sentBody.toString('utf8')) : undefined;
    if (/json/i.test(contentType) && sentBody.length > 0 && body === undefined) {
      const message = 'The request body is not valid JSON.';
      if (state.handles(route.key)) {
        const refusal = new Refusal(400, 'invalid_request', message);
        const unparsedBody = raw.toString('utf8');
        return refuseThroughState(
          request,
          response,
          url,
          route,
          {requestId, clientId},
          undefined,
          refusal,
          unparsedBody,
        );
      }
      return fail(400, 'invalid_request', message);
    }

    await forward(request, response, url, sentBody, route, requestId, clientId, body);
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) {
        const requestId = `req_${randomId(16)}`;
        const body = envelope('internal_error', `Sandbox error: ${error.message}`, requestId);
        sendJson(response, 500, body, {'X-Request-Id': requestId});
        record(
          request.method ?? 'GET',
          new URL(request.url ?? '/', 'http://sandbox.invalid').pathname,
          undefined,
          500,
          body,
        );
      } else {
        response.destroy(error);
      }
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    // E.g. the port is taken: leave nothing running.
    await prism.stop();
    await rm(directory, {recursive: true, force: true});
    throw error;
  }

  const stopPrism = () => void prism.stop();
  // Do not leave a Prism behind if the host process exits without close().
  process.once('exit', stopPrism);

  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    deliveries: state.deliveries,
    state,
    setCredentials(next) {
      credentials = next;
      for (const [accessToken, token] of tokens) {
        const credential = credentials.find((candidate) => candidate.clientId === token.clientId);
        if (!credential || !token.scopes.every((scope) => credential.scopes.includes(scope))) {
          tokens.delete(accessToken);
        }
      }
    },
    async close() {
      process.off('exit', stopPrism);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      pooled.destroy();
      await prism.stop();
      await rm(directory, {recursive: true, force: true});
    },
  };
}

/** The path parameters of `actual` under `template`: `/v1/esims/{iccid}` → `{iccid: '89…'}`. */
function templateParams(actual: string, template: string): Record<string, string> {
  const values = actual.replace(/\/+$/, '').split('/');
  return Object.fromEntries(
    template
      .split('/')
      .flatMap((segment, index) =>
        /^\{(.+)\}$/.test(segment) ? [[segment.slice(1, -1), decodeURIComponent(values[index]!)]] : [],
      ),
  );
}

/** matchesTemplate, but a malformed %-escape is simply no match. */
function safeMatch(actual: string, template: string): boolean {
  try {
    return matchesTemplate(actual, template);
  } catch {
    return false;
  }
}
