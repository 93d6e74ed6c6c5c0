/**
 * The local sandbox with real processes: Prism behind the front, and bash, node and python3
 * running requests through the routing shims. One sandbox serves the whole file.
 */
import {execFile} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';

import {expect, test} from '@playwright/test';

import {ENVIRONMENTS, SAMPLES, SANDBOX} from '../src/constants/api';
import {listOperations, type OpenApiDocument} from '../lib/contract/openapi';
import {documentScopes, sandboxDocument, startSandbox, type Sandbox} from './server';
import {SandboxState} from './state';
import {
  accessToken,
  concretePathOf,
  credentialsForm,
  exampleBody,
  expectError,
  expectOAuthError,
  parametersOf,
  send,
  tokenResponse,
} from './test-helpers';
import type {Result, Send} from './test-helpers';

const SCOPES = ['catalog:read', 'orders:write', 'esims:read'];
const CLIENT = {clientId: 'ci_test_sandbox', clientSecret: 'cs_test_sandbox', scopes: SCOPES};
const CLIENT_FORM = credentialsForm(CLIENT);
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

/** A token with every scope of CLIENT's, reused as a client should: the token endpoint allows few requests per minute. */
let cachedToken: string | undefined;
const token = async () => (cachedToken ??= await accessToken(sandbox.origin, CLIENT));
const tokenAnswer = (form: Record<string, string>, basic?: {id: string; secret: string}) =>
  tokenResponse(sandbox.origin, form, basic);
const call = (method: string, apiPath: string, options?: Send) => send(sandbox.origin, method, apiPath, options);

/** `command`'s output; a failure's message carries its stderr. */
async function run(command: string, args: string[], env: Record<string, string> = {}) {
  // No __pycache__ beside the Python shim.
  const routed = {
    PYTHONDONTWRITEBYTECODE: '1',
    ACME_SANDBOX_ORIGIN: sandbox.origin,
    ACME_SANDBOX_API_ORIGIN: API_ORIGIN,
  };
  return (await promisify(execFile)(command, args, {env: {...process.env, ...routed, ...env}, timeout: 20_000})).stdout;
}

test.describe('token endpoint', () => {
  test('issues a Bearer token with every granted scope, for credentials in the form body or by HTTP Basic; a requested subset of scopes is all the token carries', async () => {
    const basic = {id: CLIENT.clientId, secret: CLIENT.clientSecret};
    for (const [how, answer] of [
      ['form body', await tokenAnswer(CLIENT_FORM)],
      ['HTTP Basic', await tokenAnswer({grant_type: 'client_credentials'}, basic)],
    ] as const) {
      expect(answer.status, how).toBe(200);
      expect(answer.body, how).toEqual({
        access_token: expect.stringMatching(/^at_test_\w+$/),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: SCOPES.join(' '),
      });
    }
    const {body} = await tokenAnswer({...CLIENT_FORM, scope: 'catalog:read'});
    expect(body.scope).toBe('catalog:read');
    const subset = {token: body.access_token as string};
    expect((await call('GET', '/v1/packages', subset)).status).toBe(200);
    const error = expectError(await call('GET', `/v1/esims/${SAMPLES.iccid}`, subset), 'insufficient_scope');
    expect(error.message).toContain('esims:read');
  });

  test('answers RFC 6749 errors: invalid_client, invalid_scope, unsupported_grant_type, invalid_request; another method is 405 invalid_request', async () => {
    const wrongSecret = {id: CLIENT.clientId, secret: 'cs_test_wrong'};
    const unknownClient = {grant_type: 'client_credentials', client_id: 'ci_test_unknown', client_secret: 'x'};
    const notGranted = {...CLIENT_FORM, scope: 'catalog:read refunds:write'};
    for (const [status, error, answer, description] of [
      [401, 'invalid_client', await tokenAnswer({grant_type: 'client_credentials'}, wrongSecret)],
      [401, 'invalid_client', await tokenAnswer(unknownClient)],
      [400, 'invalid_scope', await tokenAnswer(notGranted), expect.stringContaining('refunds:write')],
      [400, 'unsupported_grant_type', await tokenAnswer({...CLIENT_FORM, grant_type: 'password'})],
      [400, 'invalid_request', await tokenAnswer({client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret})],
    ] as const) {
      expectOAuthError(answer, status, error, description);
    }
    const response = await fetch(`${sandbox.origin}/oauth/token`);
    expectOAuthError({status: response.status, body: await response.json()}, 405, 'invalid_request');
  });
});

test.describe('API calls', () => {
  test("a 4xx to a caller its token names carries the caller's rate-limit window; a 401 (missing_token without a token, invalid_token with an unknown one) names no caller and carries none; 403 insufficient_scope names the scope the operation needs; unknown paths and methods are 404 resource_not_found", async () => {
    const windowOf = (result: Result) =>
      ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => result.headers.get(name));
    const auth = {token: await token()};
    const simulate = `/v1/sandbox/esims/${SAMPLES.sandboxIccid}/simulate`;
    const refused = await call('POST', simulate, {...auth, body: {action: 'installed'}});
    expect(expectError(refused, 'insufficient_scope').message).toContain('esims:write');
    expect(sandbox.log.at(-1), 'the log says why').toMatchObject({
      operation: 'POST /v1/sandbox/esims/{iccid}/simulate',
      status: 403,
      code: 'insufficient_scope',
      detail: expect.stringContaining('esims:write'),
    });
    expect(windowOf(refused).every((value) => value !== null && /^\d+$/.test(value))).toBe(true);
    const unknownPath = await call('GET', '/v1/no-such-thing', auth);
    expectError(unknownPath, 'resource_not_found');
    expect(windowOf(unknownPath).every((value) => value !== null)).toBe(true);
    const unknownMethod = expectError(await call('DELETE', '/v1/packages', auth), 'resource_not_found');
    expect(unknownMethod.message).toContain('GET');
    const unauthenticated = await call('GET', '/v1/packages', {token: 'at_test_unknown'});
    expectError(unauthenticated, 'invalid_token');
    expect(windowOf(unauthenticated)).toEqual([null, null, null]);
    expect(unauthenticated.headers.get('www-authenticate')).toBe('Bearer');
    expectError(await call('GET', '/v1/packages'), 'missing_token');
  });

  test('a valid call is answered from the sandbox state, with its own request id', async () => {
    const auth = {token: await token()};
    const packages = await call('GET', '/v1/packages?country=JP', auth);
    expect(packages.status).toBe(200);
    expect((packages.body.data as {id: string}[]).map((pkg) => pkg.id)).toContain(SAMPLES.packageId);
    const order = await call('POST', '/v1/orders', {
      ...auth,
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
    const auth = {token: await token()};
    for (const [param, body, key] of [
      ['quantity', {package_id: SAMPLES.packageId, quantity: 0}, 'b1d9e2c0-7a7e-4c4f-8a3b-5e6f7a8b9c0d'],
      // Another body needs another key: the first 400 is stored under the first.
      ['package_id', {quantity: 1}, '0a7e5f3c-4d2b-4c1e-9f8a-2b3c4d5e6f70'],
      ['Idempotency-Key', {package_id: SAMPLES.packageId}, undefined],
    ] as const) {
      const headers = key ? {'Idempotency-Key': key} : undefined;
      const answer = await call('POST', '/v1/orders', {...auth, body, headers});
      const error = expectError(answer, 'validation_failed', param);
      if (param === 'quantity') expect(error.message).toMatch(/quantity must be >= 1/);
    }
  });

  test('an operation the sandbox state does not know yet answers 2xx from the contract’s examples', async () => {
    // A writer's new operation works before anyone writes its state (sandbox/state.ts).
    const known = new Set<string>(SandboxState.OPERATIONS);
    const full = {clientId: 'ci_test_full', clientSecret: 'cs_test_full', scopes: documentScopes(document)};
    sandbox.setCredentials([CLIENT, full]);
    const fullToken = await accessToken(sandbox.origin, full);
    const failures: string[] = [];
    for (const {method, path: template, operation} of listOperations(document)) {
      if (template === '/oauth/token' || known.has(`${method} ${template}`)) continue;
      const parameters = parametersOf(document, operation);
      const required = (where: string) =>
        parameters
          .filter((parameter) => parameter.in === where && parameter.required)
          .map((parameter) => [parameter.name, String(parameter.example)]);
      const query = new URLSearchParams(required('query')).toString();
      const apiPath = concretePathOf(document, template, operation) + (query ? `?${query}` : '');
      const headers = Object.fromEntries(required('header'));
      const result = await call(method, apiPath, {token: fullToken, body: exampleBody(operation), headers});
      if (result.status >= 300) failures.push(`${method} ${apiPath}: ${result.status} ${JSON.stringify(result.body)}`);
    }
    sandbox.setCredentials([CLIENT]);
    expect(failures).toEqual([]);
  });

  test('setCredentials revokes the tokens of a removed credential', async () => {
    const revoked = await token();
    sandbox.setCredentials([]);
    try {
      expectError(await call('GET', '/v1/packages', {token: revoked}), 'invalid_token');
    } finally {
      sandbox.setCredentials([CLIENT]);
      cachedToken = undefined;
    }
  });
});

test('marks are logged in order between the requests they separate', async () => {
  const auth = {token: await token()};
  const mark = async (label: string) =>
    expect(
      (await fetch(`${sandbox.origin}/__sandbox/mark/${encodeURIComponent(label)}`, {method: 'POST'})).status,
    ).toBe(204);
  const start = sandbox.log.length;
  await mark('log: first');
  await call('GET', '/v1/packages', auth);
  await mark('log: second');
  await call('GET', '/v1/balance', auth);
  await call('GET', '/v1/nope', auth);
  const missingScope = {code: 'insufficient_scope', detail: 'missing scopes: billing:read'};
  const request = (apiPath: string, status: number, rest: object) =>
    ({kind: 'request', method: 'GET', path: apiPath, status, at: expect.any(Number), ...rest}) as const;
  expect(sandbox.log.slice(start)).toEqual([
    {kind: 'mark', label: 'log: first'},
    request('/v1/packages', 200, {operation: 'GET /v1/packages'}),
    {kind: 'mark', label: 'log: second'},
    request('/v1/balance', 403, {operation: 'GET /v1/balance', ...missingScope}),
    request('/v1/nope', 404, {code: 'resource_not_found', detail: expect.stringContaining('/v1/nope')}),
  ]);
});

test.describe('routing shims send the unchanged samples to the sandbox', () => {
  const credentialsEnv = {ACME_CLIENT_ID: CLIENT.clientId, ACME_CLIENT_SECRET: CLIENT.clientSecret};
  const BASH = `
    set -euo pipefail
    source ${JSON.stringify(path.join(ROUTE, 'curl.bash'))}
    ACCESS_TOKEN=$(curl -s -X POST ${API_ORIGIN}/oauth/token \\
      -d grant_type=client_credentials -d client_id="$ACME_CLIENT_ID" -d client_secret="$ACME_CLIENT_SECRET" | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')
    curl -s -o /dev/null -w '%{http_code}\\n' "${API_ORIGIN}/v1/packages?country=JP&limit=5" -H "Authorization: Bearer $ACCESS_TOKEN"
    # A look-alike host keeps its URL (pinned to a closed local port: no DNS, fails at once).
    curl -s -o /dev/null -w '%{url_effective}\\n' --resolve sandbox.api.example.com.invalid:443:127.0.0.1 https://sandbox.api.example.com.invalid/v1/packages || true
  `;
  const NODE = `
    const auth = 'Basic ' + Buffer.from(process.env.ACME_CLIENT_ID + ':' + process.env.ACME_CLIENT_SECRET).toString('base64');
    const token = await (await fetch('${API_ORIGIN}/oauth/token', {method: 'POST', headers: {Authorization: auth}, body: new URLSearchParams({grant_type: 'client_credentials'})})).json();
    const headers = {Authorization: 'Bearer ' + token.access_token};
    const packages = await fetch(new URL('${API_ORIGIN}/v1/packages?country=JP'), {headers});
    const order = await fetch(new Request('${API_ORIGIN}/v1/orders', {method: 'POST', headers: {...headers, 'Content-Type': 'application/json', 'Idempotency-Key': 'd3f1a4e2-9c90-4e6b-8c5d-7a8b9c0d1e2f'}, body: JSON.stringify({package_id: '${SAMPLES.packageId}'})}));
    console.log([packages.status, order.status, (await order.json()).id].join(' '));
  `;
  const PYTHON_SCRIPT = [
    'import os, requests',
    `token = requests.post("${API_ORIGIN}/oauth/token", data={"grant_type": "client_credentials"}, auth=(os.environ["ACME_CLIENT_ID"], os.environ["ACME_CLIENT_SECRET"]), timeout=30).json()`,
    `r = requests.Session().get("${API_ORIGIN}/v1/packages", params={"country": "JP"}, headers={"Authorization": "Bearer " + token["access_token"]}, timeout=30)`,
    'print(r.status_code, r.json()["data"][0]["id"])',
  ].join('\n');
  const TOKEN_THEN_PACKAGES = ['POST /oauth/token 200', 'GET /v1/packages 200'];

  for (const shim of [
    {
      name: 'bash: curl to the public sandbox origin is rewritten; other URLs are not',
      run: () => run('bash', ['-c', BASH], credentialsEnv),
      output: /^200\nhttps:\/\/sandbox\.api\.example\.com\.invalid\/v1\/packages$/,
      requests: TOKEN_THEN_PACKAGES,
    },
    {
      name: 'node: fetch() with a string, a URL and a Request is rewritten',
      run: () =>
        run(
          process.execPath,
          ['--import', path.join(ROUTE, 'node.mjs'), '--input-type=module', '-e', NODE],
          credentialsEnv,
        ),
      output: /^200 201 ord_\w+$/,
      requests: [...TOKEN_THEN_PACKAGES, 'POST /v1/orders 201'],
    },
    {
      name: 'python: requests is rewritten (Basic auth and query kept)',
      run: () => run(PYTHON, ['-c', PYTHON_SCRIPT], {...credentialsEnv, PYTHONPATH: path.join(ROUTE, 'python')}),
      output: /^200 jp-/,
      requests: TOKEN_THEN_PACKAGES,
    },
  ]) {
    test(shim.name, async () => {
      const start = sandbox.log.length;
      expect((await shim.run()).trim()).toMatch(shim.output);
      const requests = sandbox.log.slice(start).filter((entry) => entry.kind === 'request');
      expect(requests.map((entry) => `${entry.operation} ${entry.status}`)).toEqual(shim.requests);
    });
  }

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
