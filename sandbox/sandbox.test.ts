/**
 * The local sandbox with real processes: Prism behind the front, and bash, node and python3
 * running requests through the routing shims. One sandbox serves the whole file.
 */
import {execFile} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {ENVIRONMENTS, SAMPLES, SANDBOX, URLS} from '../src/constants/api';
import {errorRule} from '../src/constants/behaviour';
import {listOperations, resolveRef, type OpenApiDocument, type OpenApiParameter} from '../lib/contract/openapi';
import {documentScopes, sandboxDocument, startSandbox, type Sandbox, type SandboxLogEntry} from './server';
import {SandboxState} from './state';

const CLIENT = {
  clientId: 'ci_test_sandbox',
  clientSecret: 'cs_test_sandbox',
  scopes: ['catalog:read', 'orders:write', 'esims:read'],
};
/** The public origin the docs' samples call. */
const API_ORIGIN = new URL(ENVIRONMENTS.sandbox.apiBase).origin;
const ROUTE = path.join(__dirname, 'route');
// Debian's python3 has python3-requests; elsewhere take the one on PATH.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

let sandbox: Sandbox;
let document: OpenApiDocument;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  document = (await sandboxDocument()).document;
  sandbox = await startSandbox({credentials: [CLIENT]});
});

test.afterAll(async () => {
  await sandbox?.close();
});

type Form = Record<string, string>;

const CLIENT_FORM = {grant_type: 'client_credentials', client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret};

async function tokenResponse(form: Form, basic?: {id: string; secret: string}) {
  const response = await fetch(`${sandbox.origin}/oauth/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(basic && {Authorization: `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}`}),
    },
    body: new URLSearchParams(form),
  });
  return {status: response.status, body: (await response.json()) as Record<string, unknown>};
}

/** Tokens by scope, reused as a client should: the token endpoint allows few requests per minute. */
const tokens = new Map<string, string>();

async function accessToken(scope?: string): Promise<string> {
  const cached = tokens.get(scope ?? '');
  if (cached) return cached;
  const {status, body} = await tokenResponse({...CLIENT_FORM, ...(scope && {scope})});
  expect(status).toBe(200);
  tokens.set(scope ?? '', body.access_token as string);
  return body.access_token as string;
}

async function call(
  method: string,
  apiPath: string,
  options: {token?: string; body?: unknown; headers?: Record<string, string>} = {},
) {
  const response = await fetch(`${sandbox.origin}${apiPath}`, {
    method,
    headers: {
      ...options.headers,
      ...(options.token && {Authorization: `Bearer ${options.token}`}),
      ...(options.body !== undefined && {'Content-Type': 'application/json'}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as {error?: Record<string, unknown>} & Record<string, unknown>,
  };
}

function expectEnvelope(result: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  const requestId = result.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_[A-Za-z0-9]+$/);
  expect(result.body.error).toEqual(
    expect.objectContaining({
      code,
      request_id: requestId,
      doc_url: `${URLS.errorsDocBase}#${code}`,
      retry: errorRule(code).retry,
    }),
  );
  const fields = ['code', 'doc_url', 'message', 'param', 'request_id', 'retry'];
  expect(Object.keys(result.body.error!).sort()).toEqual(fields);
  return result.body.error as {code: string; message: string; param: string | null};
}

async function mark(label: string) {
  const response = await fetch(`${sandbox.origin}/__sandbox/mark/${encodeURIComponent(label)}`, {method: 'POST'});
  expect(response.status).toBe(204);
}

/** The request entries logged after the mark `label` (up to the next mark). */
function requestsAfter(label: string) {
  const start = sandbox.log.findIndex((entry) => entry.kind === 'mark' && entry.label === label);
  expect(start, `mark ${label}`).toBeGreaterThanOrEqual(0);
  const rest = sandbox.log.slice(start + 1);
  const end = rest.findIndex((entry) => entry.kind === 'mark');
  return (end < 0 ? rest : rest.slice(0, end)).filter(
    (entry): entry is Extract<SandboxLogEntry, {kind: 'request'}> => entry.kind === 'request',
  );
}

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    // No __pycache__ beside the Python shim.
    const base = {
      ...process.env,
      PYTHONDONTWRITEBYTECODE: '1',
      ACME_SANDBOX_ORIGIN: sandbox.origin,
      ACME_SANDBOX_API_ORIGIN: API_ORIGIN,
    };
    execFile(command, args, {env: {...base, ...env}, timeout: 20_000}, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} failed: ${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

test.describe('token endpoint', () => {
  test('issues a Bearer token with every granted scope, for credentials in the form body or by HTTP Basic', async () => {
    const basic = {id: CLIENT.clientId, secret: CLIENT.clientSecret};
    for (const [how, answer] of [
      ['form body', await tokenResponse(CLIENT_FORM)],
      ['HTTP Basic', await tokenResponse({grant_type: 'client_credentials'}, basic)],
    ] as const) {
      expect(answer.status, how).toBe(200);
      expect(answer.body, how).toEqual({
        access_token: expect.stringMatching(/^at_test_\w+$/),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: CLIENT.scopes.join(' '),
      });
    }
  });

  test('answers RFC 6749 errors: invalid_client, invalid_scope, unsupported_grant_type, invalid_request', async () => {
    expect(
      await tokenResponse({grant_type: 'client_credentials'}, {id: CLIENT.clientId, secret: 'cs_test_wrong'}),
    ).toEqual({
      status: 401,
      body: {error: 'invalid_client', error_description: expect.any(String)},
    });
    expect(
      (await tokenResponse({grant_type: 'client_credentials', client_id: 'ci_test_unknown', client_secret: 'x'})).body
        .error,
    ).toBe('invalid_client');
    const scoped = await tokenResponse({...CLIENT_FORM, scope: 'catalog:read refunds:write'});
    expect(scoped.status).toBe(400);
    expect(scoped.body).toEqual({error: 'invalid_scope', error_description: expect.stringContaining('refunds:write')});
    expect(await tokenResponse({...CLIENT_FORM, grant_type: 'password'})).toMatchObject({
      status: 400,
      body: {error: 'unsupported_grant_type'},
    });
    expect(await tokenResponse({client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret})).toMatchObject({
      status: 400,
      body: {error: 'invalid_request'},
    });
  });

  test('a requested subset of scopes is all the token carries', async () => {
    const {body} = await tokenResponse({...CLIENT_FORM, scope: 'catalog:read'});
    expect(body.scope).toBe('catalog:read');
    const token = body.access_token as string;
    expect((await call('GET', '/v1/packages', {token})).status).toBe(200);
    const error = expectEnvelope(await call('GET', `/v1/esims/${SAMPLES.iccid}`, {token}), 403, 'insufficient_scope');
    expect(error.message).toContain('esims:read');
  });
});

test.describe('API calls', () => {
  test("a 4xx to a caller its token names carries the caller's rate-limit window; a 401 (missing_token without a token, invalid_token with an unknown one) names no caller and carries none; 403 insufficient_scope names the scope the operation needs", async () => {
    const token = await accessToken();
    const windowOf = (result: Awaited<ReturnType<typeof call>>) =>
      ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => result.headers.get(name));
    const refused = await call('POST', `/v1/sandbox/esims/${SAMPLES.sandboxIccid}/simulate`, {
      token,
      body: {action: 'installed'},
    });
    expect(expectEnvelope(refused, 403, 'insufficient_scope').message).toContain('esims:write');
    expect(sandbox.log.at(-1), 'the log says why').toMatchObject({
      operation: 'POST /v1/sandbox/esims/{iccid}/simulate',
      status: 403,
      code: 'insufficient_scope',
      detail: expect.stringContaining('esims:write'),
    });
    expect(windowOf(refused).every((value) => value !== null && /^\d+$/.test(value))).toBe(true);
    const unknownPath = await call('GET', '/v1/no-such-thing', {token});
    expectEnvelope(unknownPath, 404, 'resource_not_found');
    expect(windowOf(unknownPath).every((value) => value !== null)).toBe(true);
    const unauthenticated = await call('GET', '/v1/packages', {token: 'at_test_unknown'});
    expectEnvelope(unauthenticated, 401, 'invalid_token');
    expect(windowOf(unauthenticated)).toEqual([null, null, null]);
    expect(unauthenticated.headers.get('www-authenticate')).toBe('Bearer');
    expectEnvelope(await call('GET', '/v1/packages'), 401, 'missing_token');
  });

  test('a valid call is answered from the sandbox state, with its own request id', async () => {
    const token = await accessToken();
    const packages = await call('GET', '/v1/packages?country=JP', {token});
    expect(packages.status).toBe(200);
    expect((packages.body.data as {id: string}[]).map((pkg) => pkg.id)).toContain(SAMPLES.packageId);
    const order = await call('POST', '/v1/orders', {
      token,
      body: {package_id: SAMPLES.packageId, quantity: 1},
      headers: {'Idempotency-Key': 'a8a7c1f4-0f4b-4a52-9d1e-2f0d7c3e5b61'},
    });
    expect(order.status).toBe(201);
    expect(order.body).toMatchObject({id: expect.stringMatching(/^ord_/), status: 'completed'});
    expect((order.body.esims as {iccid: string}[])[0]!.iccid.startsWith(SANDBOX.iccidPrefix)).toBe(true);
    expect(order.headers.get('x-request-id')).toMatch(/^req_/);
    expect(order.headers.get('x-request-id')).not.toBe(packages.headers.get('x-request-id'));
    // Headers Prism sends from examples that would mislead here.
    expect(order.headers.get('idempotent-replayed')).toBeNull();
    expect(order.headers.get('deprecation')).toBeNull();
  });

  test('an invalid request is 400 validation_failed naming the field', async () => {
    const token = await accessToken();
    for (const [param, body, key] of [
      ['quantity', {package_id: SAMPLES.packageId, quantity: 0}, 'b1d9e2c0-7a7e-4c4f-8a3b-5e6f7a8b9c0d'],
      // Another body needs another key: the first 400 is stored under the first.
      ['package_id', {quantity: 1}, '0a7e5f3c-4d2b-4c1e-9f8a-2b3c4d5e6f70'],
      ['Idempotency-Key', {package_id: SAMPLES.packageId}, undefined],
    ] as const) {
      const headers = key ? {'Idempotency-Key': key} : undefined;
      const error = expectEnvelope(await call('POST', '/v1/orders', {token, body, headers}), 400, 'validation_failed');
      expect(error.param).toBe(param);
      if (param === 'quantity') expect(error.message).toMatch(/quantity must be >= 1/);
    }
    // An operation that documents no 400/422: Prism's own problem+json becomes the same envelope.
    const packageId = expectEnvelope(await call('GET', '/v1/packages/NOT_AN_ID', {token}), 400, 'validation_failed');
    expect(packageId.param).toBe('package_id');
  });

  test('an operation the sandbox state does not know yet answers 2xx from the contract’s examples', async () => {
    // A writer's new operation works before anyone writes its state (sandbox/state.ts).
    const known = new Set<string>(SandboxState.OPERATIONS);
    const full = {clientId: 'ci_test_full', clientSecret: 'cs_test_full', scopes: documentScopes(document)};
    sandbox.setCredentials([CLIENT, full]);
    const {body} = await tokenResponse({...CLIENT_FORM, client_id: full.clientId, client_secret: full.clientSecret});
    const failures: string[] = [];
    for (const {method, path: template, operation} of listOperations(document)) {
      if (template === '/oauth/token' || known.has(`${method} ${template}`)) continue;
      const parameters = (operation.parameters ?? []).map((parameter) =>
        resolveRef<OpenApiParameter>(document, parameter),
      );
      const query = new URLSearchParams(
        parameters
          .filter((parameter) => parameter.in === 'query' && parameter.required)
          .map((parameter) => [parameter.name, String(parameter.example)]),
      ).toString();
      const apiPath =
        template.replace(/\{(\w+)\}/g, (_match, name: string) =>
          encodeURIComponent(String(parameters.find((parameter) => parameter.name === name)!.example)),
        ) + (query ? `?${query}` : '');
      const headers = Object.fromEntries(
        parameters
          .filter((parameter) => parameter.in === 'header' && parameter.required)
          .map((parameter) => [parameter.name, String(parameter.example)]),
      );
      const example = (operation.requestBody as {content?: {'application/json'?: {example?: unknown}}} | undefined)
        ?.content?.['application/json']?.example;
      const result = await call(method, apiPath, {token: body.access_token as string, body: example, headers});
      if (result.status >= 300) failures.push(`${method} ${apiPath}: ${result.status} ${JSON.stringify(result.body)}`);
    }
    sandbox.setCredentials([CLIENT]);
    expect(failures).toEqual([]);
  });

  test('the token URL answers other methods in the OAuth format; unknown paths and methods are 404 resource_not_found', async () => {
    const response = await fetch(`${sandbox.origin}/oauth/token`);
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({error: 'invalid_request'});
    const method = expectEnvelope(
      await call('DELETE', '/v1/packages', {token: await accessToken()}),
      404,
      'resource_not_found',
    );
    expect(method.message).toContain('GET');
  });

  test('setCredentials revokes the tokens of a removed credential', async () => {
    const token = await accessToken();
    sandbox.setCredentials([]);
    try {
      expectEnvelope(await call('GET', '/v1/packages', {token}), 401, 'invalid_token');
    } finally {
      sandbox.setCredentials([CLIENT]);
      tokens.clear();
    }
  });
});

test('marks are logged in order between the requests they separate', async () => {
  const token = await accessToken();
  await mark('log: first');
  await call('GET', '/v1/packages', {token});
  await mark('log: second');
  await call('GET', '/v1/balance', {token});
  await call('GET', '/v1/nope', {token});
  const start = sandbox.log.findIndex((entry) => entry.kind === 'mark' && entry.label === 'log: first');
  expect(sandbox.log.slice(start)).toEqual([
    {kind: 'mark', label: 'log: first'},
    {
      kind: 'request',
      method: 'GET',
      path: '/v1/packages',
      operation: 'GET /v1/packages',
      status: 200,
      at: expect.any(Number),
    },
    {kind: 'mark', label: 'log: second'},
    {
      kind: 'request',
      method: 'GET',
      path: '/v1/balance',
      operation: 'GET /v1/balance',
      status: 403,
      at: expect.any(Number),
      code: 'insufficient_scope',
      detail: 'missing scopes: billing:read',
    },
    {
      kind: 'request',
      method: 'GET',
      path: '/v1/nope',
      status: 404,
      at: expect.any(Number),
      code: 'resource_not_found',
      detail: expect.stringContaining('/v1/nope'),
    },
  ]);
});

test.describe('routing shims send the unchanged samples to the sandbox', () => {
  const credentialsEnv = () => ({ACME_CLIENT_ID: CLIENT.clientId, ACME_CLIENT_SECRET: CLIENT.clientSecret});

  test('bash: curl to the public sandbox origin is rewritten; other URLs are not', async () => {
    await mark('shim: bash');
    const script = `
      set -euo pipefail
      source ${JSON.stringify(path.join(ROUTE, 'curl.bash'))}
      ACCESS_TOKEN=$(curl -s -X POST ${API_ORIGIN}/oauth/token \\
        -d grant_type=client_credentials -d client_id="$ACME_CLIENT_ID" -d client_secret="$ACME_CLIENT_SECRET" | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')
      curl -s -o /dev/null -w '%{http_code}\\n' "${API_ORIGIN}/v1/packages?country=JP&limit=5" -H "Authorization: Bearer $ACCESS_TOKEN"
      # A look-alike host keeps its URL (pinned to a closed local port: no DNS, fails at once).
      curl -s -o /dev/null -w '%{url_effective}\\n' --resolve sandbox.api.example.com.invalid:443:127.0.0.1 https://sandbox.api.example.com.invalid/v1/packages || true
    `;
    const lines = (await run('bash', ['-c', script], credentialsEnv())).trim().split('\n');
    expect(lines).toEqual(['200', 'https://sandbox.api.example.com.invalid/v1/packages']);
    expect(requestsAfter('shim: bash').map((entry) => `${entry.operation} ${entry.status}`)).toEqual([
      'POST /oauth/token 200',
      'GET /v1/packages 200',
    ]);
  });

  test('node: fetch() with a string, a URL and a Request is rewritten', async () => {
    await mark('shim: node');
    const script = `
      const auth = 'Basic ' + Buffer.from(process.env.ACME_CLIENT_ID + ':' + process.env.ACME_CLIENT_SECRET).toString('base64');
      const token = await (await fetch('${API_ORIGIN}/oauth/token', {method: 'POST', headers: {Authorization: auth}, body: new URLSearchParams({grant_type: 'client_credentials'})})).json();
      const headers = {Authorization: 'Bearer ' + token.access_token};
      const packages = await fetch(new URL('${API_ORIGIN}/v1/packages?country=JP'), {headers});
      const order = await fetch(new Request('${API_ORIGIN}/v1/orders', {method: 'POST', headers: {...headers, 'Content-Type': 'application/json', 'Idempotency-Key': 'd3f1a4e2-9c90-4e6b-8c5d-7a8b9c0d1e2f'}, body: JSON.stringify({package_id: '${SAMPLES.packageId}'})}));
      console.log([packages.status, order.status, (await order.json()).id].join(' '));
    `;
    const output = await run(
      process.execPath,
      ['--import', path.join(ROUTE, 'node.mjs'), '--input-type=module', '-e', script],
      credentialsEnv(),
    );
    expect(output.trim()).toMatch(/^200 201 ord_\w+$/);
    expect(requestsAfter('shim: node').map((entry) => `${entry.operation} ${entry.status}`)).toEqual([
      'POST /oauth/token 200',
      'GET /v1/packages 200',
      'POST /v1/orders 201',
    ]);
  });

  test('python: requests is rewritten (Basic auth and query kept)', async () => {
    await mark('shim: python');
    const script = [
      'import os, requests',
      `token = requests.post("${API_ORIGIN}/oauth/token", data={"grant_type": "client_credentials"}, auth=(os.environ["ACME_CLIENT_ID"], os.environ["ACME_CLIENT_SECRET"]), timeout=30).json()`,
      `r = requests.Session().get("${API_ORIGIN}/v1/packages", params={"country": "JP"}, headers={"Authorization": "Bearer " + token["access_token"]}, timeout=30)`,
      'print(r.status_code, r.json()["data"][0]["id"])',
    ].join('\n');
    const output = await run(PYTHON, ['-c', script], {...credentialsEnv(), PYTHONPATH: path.join(ROUTE, 'python')});
    expect(output.trim()).toMatch(/^200 jp-/);
    expect(requestsAfter('shim: python').map((entry) => `${entry.operation} ${entry.status}`)).toEqual([
      'POST /oauth/token 200',
      'GET /v1/packages 200',
    ]);
  });

  test('python: without requests the interpreter still starts', async () => {
    // A `requests` that cannot be imported, behind the shim on the path.
    const directory = mkdtempSync(path.join(os.tmpdir(), 'no-requests-'));
    try {
      mkdirSync(path.join(directory, 'requests'));
      writeFileSync(path.join(directory, 'requests', '__init__.py'), 'raise ImportError("no requests here")\n');
      const output = await run(PYTHON, ['-c', 'print("started")'], {
        PYTHONPATH: [path.join(ROUTE, 'python'), directory].join(path.delimiter),
      });
      expect(output.trim()).toBe('started');
    } finally {
      rmSync(directory, {recursive: true, force: true});
    }
  });
});
