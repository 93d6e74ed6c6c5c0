/**
 * What the sandbox's tests share: a sandbox that checks its answers against the contract, requests and tokens, a
 * client with an account of its own, and the checks of an error's body.
 */
import {expect} from '@playwright/test';

import {LIMITS, SAMPLES, URLS} from '../src/constants/api';
import {errorRule, IDEMPOTENCY, type SIMULATE_ACTIONS} from '../src/constants/behaviour';
import {resolveRef, type OpenApiDocument, type OpenApiOperation, type OpenApiParameter} from '../lib/contract/openapi';
import {answerChecker} from '../lib/contract/validator';
import {documentScopes, sandboxDocument, startSandbox} from './server';
import type {Sandbox, SandboxCredential, SandboxOptions} from './server';
import type {BalanceTransaction} from './state';

export type Result = {status: number; body: Record<string, unknown>; headers: Headers};
export type Send = {token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string>};
export type ErrorBody = {code: string; message: string; param: string | null; request_id: string; retry: string};
type Amount = {amount: number};
type OrNull = string | null;
export type Order = {id: string; status: string; esims: {iccid: string}[]; total: Amount; unit_price: Amount};
export type Topup = {id: string; status: string; price: Amount; applied_at: OrNull};
export type Esim = {iccid: string; status: string; profile_state: string; expires_at: OrNull; activated_at: OrNull};
export type SimulateAction = keyof typeof SIMULATE_ACTIONS;

/** A sandbox with no credentials yet, every answer checked against the contract (see `expectAnswersMatchContract`). */
export async function checkedSandbox(options: Omit<SandboxOptions, 'credentials' | 'checkAnswer'> = {}) {
  const {document} = await sandboxDocument();
  return {document, sandbox: await startSandbox({...options, credentials: [], checkAnswer: answerChecker(document)})};
}

export function expectAnswersMatchContract(sandbox: Sandbox) {
  const problems = sandbox.log.flatMap((entry) => (entry.kind === 'request' ? (entry.answerProblems ?? []) : []));
  expect(problems, 'every answer matches the contract').toEqual([]);
}

export const parametersOf = (document: OpenApiDocument, operation: OpenApiOperation) =>
  (operation.parameters ?? []).map((parameter) => resolveRef<OpenApiParameter>(document, parameter));
/** `apiPath` with each path parameter filled: by `valueOf`, else the contract's example. */
export const concretePathOf = (
  document: OpenApiDocument,
  apiPath: string,
  operation: OpenApiOperation,
  valueOf: (name: string, example: unknown) => unknown = (_name, example) => example,
) =>
  parametersOf(document, operation)
    .filter((parameter) => parameter.in === 'path')
    .reduce(
      (path, {name, example}) => path.replace(`{${name}}`, encodeURIComponent(String(valueOf(name, example)))),
      apiPath,
    );
/** The JSON request body the contract shows for `operation`, if any. */
export const exampleBody = (operation: OpenApiOperation) =>
  (operation as {requestBody?: {content?: Record<string, {example?: unknown}>}}).requestBody?.content?.[
    'application/json'
  ]?.example;

/** A request with a JSON body (`body`, or `raw` as it is); an empty answer's body is `{}`. */
export async function send(origin: string, method: string, apiPath: string, options: Send = {}): Promise<Result> {
  const {token, body, raw, headers} = options;
  const response = await fetch(`${origin}${apiPath}`, {
    method,
    headers: {
      ...(token && {Authorization: `Bearer ${token}`}),
      ...((body !== undefined || raw !== undefined) && {'Content-Type': 'application/json'}),
      ...headers,
    },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  return {status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers};
}

/** A token request with the credentials in the form, or by HTTP Basic. */
export async function tokenResponse(
  origin: string,
  form: Record<string, string>,
  basic?: {id: string; secret: string},
) {
  const authorization = basic && `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}`;
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(authorization && {Authorization: authorization}),
    },
    body: new URLSearchParams(form),
  });
  return {status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers};
}

export const credentialsForm = ({clientId, clientSecret}: SandboxCredential) => ({
  grant_type: 'client_credentials',
  client_id: clientId,
  client_secret: clientSecret,
});

export async function accessToken(origin: string, credential: SandboxCredential, scope?: string): Promise<string> {
  const {status, body} = await tokenResponse(origin, {...credentialsForm(credential), ...(scope && {scope})});
  expect(status, JSON.stringify(body)).toBe(200);
  return body.access_token as string;
}

/**
 * The documented error envelope of `code`, whole: the model's status and retry, its doc_url, the answer's own
 * request id (the state's own answers carry it in the body only), and `param` when given.
 */
export function expectError(
  result: {status: number; body?: unknown; headers?: Headers | Record<string, string>},
  code: string,
  param?: string | RegExp | null,
  what: string = code,
) {
  const rule = errorRule(code);
  expect(result.status, `${what}: ${JSON.stringify(result.body)}`).toBe(rule.status);
  const error = (result.body as {error?: ErrorBody} | undefined)?.error;
  const requestId = result.headers instanceof Headers ? result.headers.get('x-request-id') : error?.request_id;
  expect(requestId, what).toMatch(/^req_[A-Za-z0-9]+$/);
  const anyParam = error?.param === null ? null : expect.any(String);
  expect(result.body, what).toEqual({
    error: {
      code,
      message: expect.any(String),
      param: param instanceof RegExp ? expect.stringMatching(param) : param === undefined ? anyParam : param,
      request_id: requestId,
      doc_url: `${URLS.errorsDocBase}#${code}`,
      retry: rule.retry,
    },
  });
  return error!;
}

/** A replay: the first answer as it was sent (its request id too), marked as replayed. */
export function expectReplay(replay: Result, first: Result, what?: string) {
  expect(replay.headers.get(IDEMPOTENCY.replayHeader), what).toBe('true');
  expect({status: replay.status, body: replay.body}, what).toEqual({status: first.status, body: first.body});
}

/** A token endpoint error, in its RFC 6749 format. */
export function expectOAuthError(
  result: {status: number; body: unknown},
  status: number,
  error: string,
  description?: unknown,
) {
  const body = {error, error_description: description ?? expect.any(String)};
  expect({status: result.status, body: result.body}).toEqual({status, body});
}

let clients = 0;
let keys = 0;
export const newKey = () => `key-${++keys}`;
/** The credentials of each sandbox's clients: earlier ones stay, so their tokens stay valid. */
const credentialsOf = new WeakMap<Sandbox, SandboxCredential[]>();

/** A fresh credential with every scope of the contract: its own balance, orders and eSIMs. */
export async function newClient(sandbox: Sandbox, document: OpenApiDocument) {
  const scopes = documentScopes(document);
  const credential: SandboxCredential = {
    clientId: `ci_test_client${++clients}`,
    clientSecret: 'cs_test_client',
    scopes,
  };
  credentialsOf.set(sandbox, [...(credentialsOf.get(sandbox) ?? []), credential]);
  sandbox.setCredentials(credentialsOf.get(sandbox)!);
  const token = await accessToken(sandbox.origin, credential);
  /** Every POST carries an Idempotency-Key: `key`, or a new one. `token: null` sends none. */
  const call = (method: string, apiPath: string, body?: unknown, options: Send & {key?: string} = {}) =>
    send(sandbox.origin, method, apiPath, {
      ...options,
      body,
      token: options.token === undefined ? token : options.token,
      headers: {...(method === 'POST' && {'Idempotency-Key': options.key ?? newKey()}), ...options.headers},
    });
  const ok = (result: Result, status = 200) => {
    expect(result.status, JSON.stringify(result.body)).toBe(status);
    return result.body;
  };
  const get = async (apiPath: string) => ok(await call('GET', apiPath));
  const post = async (apiPath: string, body?: unknown, status = 200) => ok(await call('POST', apiPath, body), status);
  /** The `data` of a list answer. */
  const list = async <T = Record<string, unknown>>(apiPath: string) => (await get(apiPath)).data as T[];
  const order = async (packageId: string = SAMPLES.packageId, quantity = 1, extra: Record<string, unknown> = {}) =>
    (await post('/v1/orders', {package_id: packageId, quantity, ...extra}, 201)) as unknown as Order;
  const trySimulate = (iccid: string, action: string, mb?: number) =>
    call('POST', `/v1/sandbox/esims/${iccid}/simulate`, {action, ...(mb && {mb})});
  const base = {credential, call, ok, get, post, list, order, trySimulate};
  return {
    ...base,
    ids: async (apiPath: string) => (await list<{id: string}>(apiPath)).map((item) => item.id),
    iccidOf: async (packageId?: string) => (await order(packageId)).esims[0]!.iccid,
    simulate: async (iccid: string, action: SimulateAction, mb?: number) =>
      ok(await trySimulate(iccid, action, mb)) as unknown as Esim,
    esim: async (iccid: string) => (await get(`/v1/esims/${iccid}`)) as unknown as Esim,
    topup: async (iccid: string, packageId: string) =>
      (await post(`/v1/esims/${iccid}/topups`, {package_id: packageId}, 201)) as unknown as Topup,
    setBalance: (amount: number) => post('/v1/sandbox/balance', {amount}),
    /** The balance transactions, oldest first. */
    transactions: async () =>
      (await list<BalanceTransaction>(`/v1/balance/transactions?limit=${LIMITS.pageSizeMax}`)).reverse(),
  };
}
