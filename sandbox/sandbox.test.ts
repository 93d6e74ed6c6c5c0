/**
 * The local sandbox with real processes (Prism behind the front; bash, node and python3 through the routing shims),
 * and what its state remembers and refuses. One sandbox serves the file; every answer is checked against the contract.
 */
import {execFile} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';

import {expect, test} from '@playwright/test';

import {ENVIRONMENTS, LIMITS, SAMPLE_PACKAGE, SAMPLES, SANDBOX} from '../src/constants/api';
import {SIMULATE_ACTIONS, STATE_RULES} from '../src/constants/behaviour';
import {listOperations, type OpenApiDocument} from '../lib/contract/openapi';
import {webhookEventExamples, type WebhookEventExample} from '../lib/contract/webhooks';
import {PACKAGES} from './catalogue';
import {documentScopes, type Sandbox} from './server';
import {SandboxState, signWebhook, STARTING_BALANCE} from './state';
import {
  accessToken,
  checkedSandbox,
  concretePathOf,
  credentialsForm,
  exampleBody,
  expectAnswersMatchContract,
  expectError,
  expectOAuthError,
  expectReplay,
  newClient,
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
  ({sandbox, document} = await checkedSandbox({webhookTransport: async () => 204}));
  sandbox.setCredentials([CLIENT]);
});

test.afterAll(() => sandbox?.close());

test.afterEach(() => expectAnswersMatchContract(sandbox));

/** A token with every scope of CLIENT's, reused as a client should: the token endpoint allows few requests per minute. */
let cachedToken: string | undefined;
const token = async () => (cachedToken ??= await accessToken(sandbox.origin, CLIENT));
const tokenAnswer = (form: Record<string, string>, basic?: {id: string; secret: string}) =>
  tokenResponse(sandbox.origin, form, basic);
const call = (method: string, apiPath: string, options?: Send) => send(sandbox.origin, method, apiPath, options);

/** `command`'s output, run with CLIENT's credentials (no __pycache__ beside the Python shim); an error has stderr. */
async function run(command: string, args: string[], pythonPath = path.join(ROUTE, 'python')) {
  const routed = {ACME_SANDBOX_ORIGIN: sandbox.origin, ACME_SANDBOX_API_ORIGIN: API_ORIGIN, PYTHONPATH: pythonPath};
  const credentials = {ACME_CLIENT_ID: CLIENT.clientId, ACME_CLIENT_SECRET: CLIENT.clientSecret};
  const env = {...process.env, ...routed, ...credentials, PYTHONDONTWRITEBYTECODE: '1'};
  return (await promisify(execFile)(command, args, {env, timeout: 20_000})).stdout;
}

test('the token endpoint issues a Bearer token with every granted scope, for credentials in the form body or by HTTP Basic; a requested subset of scopes is all the token carries', async () => {
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

test('the token endpoint answers RFC 6749 errors: invalid_client, invalid_scope, unsupported_grant_type, invalid_request; another method is 405 invalid_request', async () => {
  const wrongSecret = {id: CLIENT.clientId, secret: 'cs_test_wrong'};
  const unknownClient = {grant_type: 'client_credentials', client_id: 'ci_test_unknown', client_secret: 'x'};
  const notGranted = {...CLIENT_FORM, scope: 'catalog:read refunds:write'};
  for (const [status, error, answer, description] of [
    [401, 'invalid_client', await tokenAnswer({grant_type: 'client_credentials'}, wrongSecret)],
    [401, 'invalid_client', await tokenAnswer(unknownClient)],
    [400, 'invalid_scope', await tokenAnswer(notGranted), expect.stringContaining('refunds:write')],
    [400, 'unsupported_grant_type', await tokenAnswer({...CLIENT_FORM, grant_type: 'password'})],
    [400, 'invalid_request', await tokenAnswer({client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret})],
  ] as const)
    expectOAuthError(answer, status, error, description);
  const response = await fetch(`${sandbox.origin}/oauth/token`);
  expectOAuthError({status: response.status, body: await response.json()}, 405, 'invalid_request');
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
    const body = {package_id: SAMPLES.packageId, quantity: 1};
    const headers = {'Idempotency-Key': 'a8a7c1f4-0f4b-4a52-9d1e-2f0d7c3e5b61'};
    const order = await call('POST', '/v1/orders', {...auth, body, headers});
    expect(order).toMatchObject({status: 201, body: {id: expect.stringMatching(/^ord_/), status: 'completed'}});
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

  test('an operation the sandbox state does not know yet answers 2xx from the contract’s examples; setCredentials revokes the tokens of a removed credential', async () => {
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
        parameters.filter((it) => it.in === where && it.required).map(({name, example}) => [name, String(example)]);
      const query = new URLSearchParams(required('query')).toString();
      const apiPath = concretePathOf(document, template, operation) + (query ? `?${query}` : '');
      const headers = Object.fromEntries(required('header'));
      const result = await call(method, apiPath, {token: fullToken, body: exampleBody(operation), headers});
      if (result.status >= 300) failures.push(`${method} ${apiPath}: ${result.status} ${JSON.stringify(result.body)}`);
    }
    sandbox.setCredentials([CLIENT]);
    expect(failures).toEqual([]);
    expectError(await call('GET', '/v1/packages', {token: fullToken}), 'invalid_token');
  });
});

test('marks are logged in order between the requests they separate', async () => {
  const auth = {token: await token()};
  const mark = async (label: string) =>
    expect((await call('POST', `/__sandbox/mark/${encodeURIComponent(label)}`)).status).toBe(204);
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
      run: () => run('bash', ['-c', BASH]),
      output: /^200\nhttps:\/\/sandbox\.api\.example\.com\.invalid\/v1\/packages$/,
      requests: TOKEN_THEN_PACKAGES,
    },
    {
      name: 'node: fetch() with a string, a URL and a Request is rewritten',
      run: () => run(process.execPath, ['--import', path.join(ROUTE, 'node.mjs'), '--input-type=module', '-e', NODE]),
      output: /^200 201 ord_\w+$/,
      requests: [...TOKEN_THEN_PACKAGES, 'POST /v1/orders 201'],
    },
    {
      name: 'python: requests is rewritten (Basic auth and query kept)',
      run: () => run(PYTHON, ['-c', PYTHON_SCRIPT]),
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
      const pythonPath = [path.join(ROUTE, 'python'), directory].join(path.delimiter);
      expect((await run(PYTHON, ['-c', 'print("started")'], pythonPath)).trim()).toBe('started');
    } finally {
      rmSync(directory, {recursive: true, force: true});
    }
  });
});

// newClient sets the credentials to its own clients: the state's tests come after those of CLIENT.
const client = () => newClient(sandbox, document);
/** The first answer of `request`, sent again and again, that is not a 200. */
async function untilRefused<T extends {status: number}>(request: () => Promise<T>) {
  for (;;) {
    const answer = await request();
    if (answer.status !== 200) return answer;
  }
}

test('an integrator journey: every operation the state answers, with what it remembers; the state knows only operations of the contract', async () => {
  const {credential, call, get, post, list, ids, order, simulate, transactions} = await client();
  const start = sandbox.log.length;
  await get('/v1/destinations');
  const packages = await get('/v1/packages?country=JP&limit=3');
  expect(packages).toMatchObject({has_more: true, next_cursor: expect.stringMatching(/^c_/)});
  // What a walk lists: behaviour.test.ts, "the catalogue, destinations …".
  await get(`/v1/packages?country=JP&limit=3&cursor=${packages.next_cursor as string}`);
  expect(await get(`/v1/packages/${SAMPLES.packageId}`)).toMatchObject({id: SAMPLES.packageId});

  const created = await order();
  const iccid = created.esims[0]!.iccid;
  expect(await get(`/v1/orders/${created.id}`)).toMatchObject({id: created.id, status: 'completed'});
  expect(await ids('/v1/orders?status=completed')).toEqual([created.id]);
  expect((await list<{iccid: string}>(`/v1/esims?order_id=${created.id}`)).map((e) => e.iccid)).toEqual([iccid]);
  const label = 'Anna – Tokyo';
  expect((await call('PATCH', `/v1/esims/${iccid}`, {label})).body).toMatchObject({label});
  expect(await get(`/v1/esims/${iccid}`)).toMatchObject({status: 'ready', label});

  expect(await simulate(iccid, 'installed')).toMatchObject({status: 'installed'});
  expect(await simulate(iccid, 'activated')).toMatchObject({status: 'active', activated_at: expect.any(String)});
  await simulate(iccid, 'consume_data', 1000);
  const usage = {data_used_mb: 1000, data_remaining_mb: SAMPLE_PACKAGE.dataMb - 1000};
  expect(await get(`/v1/esims/${iccid}/usage`)).toMatchObject(usage);
  expect(await ids(`/v1/esims/${iccid}/topup-packages`)).toContain(SAMPLES.topupPackageId);
  const topup = await post(`/v1/esims/${iccid}/topups`, {package_id: SAMPLES.topupPackageId}, 201);
  expect(topup).toMatchObject({status: 'applied', iccid});
  expect(await get(`/v1/esims/${iccid}/topups`)).toMatchObject({data: [{id: topup.id}], has_more: false});
  expect(await post(`/v1/esims/${iccid}/suspend`)).toMatchObject({status: 'suspended'});
  expect(await post(`/v1/esims/${iccid}/resume`)).toMatchObject({status: 'active'});

  const second = await order();
  const refund = await post('/v1/refunds', {iccid: second.esims[0]!.iccid, reason: 'customer_cancelled'}, 201);
  expect(refund).toMatchObject({status: 'succeeded', order_id: second.id});
  expect(await get(`/v1/orders/${second.id}`)).toMatchObject({status: 'cancelled'});
  const third = await order();
  expect(await post(`/v1/orders/${third.id}/cancel`)).toMatchObject({status: 'cancelled'});

  const hooks = {url: 'https://partner.example.org/hooks', enabled_events: ['order.completed']};
  const endpoint = await post('/v1/webhook-endpoints', hooks, 201);
  expect(endpoint.secret).toMatch(/^whsec_/);
  expect(await ids('/v1/webhook-endpoints')).toEqual([endpoint.id]);
  const endpointPath = `/v1/webhook-endpoints/${endpoint.id as string}`;
  const disablePath = `/v1/sandbox/webhook-endpoints/${endpoint.id as string}/disable`;
  expect(await post(`${endpointPath}/test`)).toMatchObject({delivered: true, response_status: 204});
  await post(`${endpointPath}/roll-secret`, {expire_previous_after_hours: 1});
  expect(await post(disablePath)).toMatchObject({status: 'disabled'});
  expect(await post(`${endpointPath}/enable`)).toMatchObject({status: 'enabled'});
  expect((await ids('/v1/events?limit=100')).length).toBeGreaterThan(0);
  expect((await call('DELETE', endpointPath)).status).toBe(204);
  const session = {mode: 'manage', allowed_origins: ['https://shop.example.org'], customer_reference: 'booking-88412'};
  await post('/v1/widget-sessions', {...session, iccid}, 201);

  // The balance adds up every movement: three orders and a top-up out, a refund and a cancel's refund in.
  const price = SAMPLE_PACKAGE.wholesaleMinor;
  const topupPrice = PACKAGES.find((pkg) => pkg.id === SAMPLES.topupPackageId)!.wholesale_price.amount;
  const expected = STARTING_BALANCE - 3 * price - topupPrice + 2 * price;
  expect(await get('/v1/balance')).toMatchObject({available: {amount: expected}});
  const deposited = expected + 1000;
  expect(await post('/v1/sandbox/balance', {amount: deposited})).toMatchObject({available: {amount: deposited}});
  const oldestFirst = await transactions();
  expect(oldestFirst).toEqual(sandbox.state.transactions(credential.clientId));
  expect(oldestFirst.map((t) => `${t.type} ${t.source_id?.slice(0, 4) ?? null}`).join(', ')).toBe(
    'order ord_, topup top_, order ord_, refund rfd_, order ord_, refund rfd_, deposit null',
  );
  // Each balance_after is the one before plus the amount.
  let running = STARTING_BALANCE;
  const sums = oldestFirst.map((transaction) => (running += transaction.amount.amount));
  expect(oldestFirst.map((transaction) => transaction.balance_after.amount)).toEqual(sums);
  expect(running).toBe(deposited);

  const touched = new Set(
    sandbox.log.slice(start).flatMap((entry) => (entry.kind === 'request' && entry.operation ? [entry.operation] : [])),
  );
  expect([...SandboxState.OPERATIONS].filter((operation) => !touched.has(operation))).toEqual([]);
  const contract = listOperations(document).map(({method, path}) => `${method} ${path}`);
  expect(SandboxState.OPERATIONS.filter((operation) => !contract.includes(operation))).toEqual([]);
  expect(STATE_RULES.map((rule) => rule.operation).filter((operation) => !contract.includes(operation))).toEqual([]);
});

test.describe('the documented rules', () => {
  test('refund and cancel: only never-installed eSIMs; a refunded eSIM cannot be refunded, topped up or activated, its profile revoked; a deleted profile never activates', async () => {
    // Installed: the natural triggers of esim_not_refundable and order_not_cancellable (behaviour.test.ts).
    const {call, get, post, order, iccidOf, simulate, trySimulate} = await client();
    // A suspended eSIM was never installed, yet it blocks the cancel too: only `ready` eSIMs allow it.
    const suspended = await order();
    await post(`/v1/esims/${suspended.esims[0]!.iccid}/suspend`);
    expectError(await call('POST', `/v1/orders/${suspended.id}/cancel`), 'order_not_cancellable');

    const refunded = await iccidOf();
    await post('/v1/refunds', {iccid: refunded}, 201);
    expectError(await call('POST', '/v1/refunds', {iccid: refunded}), 'esim_not_refundable');
    const topup = await call('POST', `/v1/esims/${refunded}/topups`, {package_id: SAMPLES.topupPackageId});
    expectError(topup, 'topup_not_allowed');
    expectError(await trySimulate(refunded, 'activated'), 'invalid_state');
    expect((await get(`/v1/esims/${refunded}`)).profile_state, 'a refund revokes the profile').toBe('deleted');

    // A profile the traveller deleted never installs again: support reissues it.
    const deleted = await iccidOf();
    await simulate(deleted, 'installed');
    await simulate(deleted, 'profile_deleted');
    expectError(await trySimulate(deleted, 'activated'), 'invalid_state');
  });

  test('a cancel retried with its Idempotency-Key replays the first answer, even with {} for no body; with another key it is order_not_cancellable. A state refusal that passes (a processing order, a suspended eSIM) is after_fix: the same key replays it, a new key goes through', async () => {
    const {call, get, post, order, iccidOf} = await client();
    const created = await order();
    const first = await call('POST', `/v1/orders/${created.id}/cancel`, undefined, {key: 'cancel-once'});
    expect(first.status).toBeLessThan(300);
    // No body and an empty JSON object are the same request.
    expectReplay(await call('POST', `/v1/orders/${created.id}/cancel`, {}, {key: 'cancel-once'}), first);
    expectError(await call('POST', `/v1/orders/${created.id}/cancel`), 'order_not_cancellable');
    expect(await get(`/v1/orders/${created.id}`)).toMatchObject({status: 'cancelled'});

    const processing = await order(SANDBOX.slowPackageId);
    expect(processing).toMatchObject({status: 'processing'});
    const orderPath = `/v1/orders/${processing.id}`;
    const refused = await call('POST', `${orderPath}/cancel`, undefined, {key: 'cancel-processing'});
    expect(expectError(refused, 'order_not_cancellable').retry).toBe('after_fix');
    expect(await get(orderPath)).toMatchObject({status: 'completed'});
    expectReplay(await call('POST', `${orderPath}/cancel`, undefined, {key: 'cancel-processing'}), refused);
    expect((await call('POST', `${orderPath}/cancel`)).status).toBeLessThan(300);

    const iccid = await iccidOf();
    await post(`/v1/esims/${iccid}/suspend`);
    const notRefundable = await call('POST', '/v1/refunds', {iccid}, {key: 'refund-suspended'});
    expect(expectError(notRefundable, 'esim_not_refundable').retry).toBe('after_fix');
    const noTopup = await call('POST', `/v1/esims/${iccid}/topups`, {package_id: SAMPLES.topupPackageId});
    expect(expectError(noTopup, 'topup_not_allowed').retry).toBe('after_fix');
    await post(`/v1/esims/${iccid}/resume`);
    expectReplay(await call('POST', '/v1/refunds', {iccid}, {key: 'refund-suspended'}), notRefundable);
    await post('/v1/refunds', {iccid}, 201);
  });

  test('a top-up package that does not fit the eSIM is refused; data used up makes it depleted, a top-up active again; an expired eSIM: no top-up, no suspend, no further simulation', async () => {
    const {call, iccidOf, simulate, trySimulate, topup, esim} = await client();
    const iccid = await iccidOf();
    expectError(await call('POST', `/v1/esims/${iccid}/topups`, {package_id: 'eu-10gb-30d'}), 'topup_not_allowed');
    await simulate(iccid, 'activated');
    expect(await simulate(iccid, 'consume_data', SAMPLE_PACKAGE.dataMb)).toMatchObject({status: 'depleted'});
    await topup(iccid, SAMPLES.topupPackageId);
    expect(await esim(iccid)).toMatchObject({status: 'active'});
    // No top-up once expired: the natural trigger of topup_not_allowed (behaviour.test.ts).
    expect(await simulate(iccid, 'expire')).toMatchObject({status: 'expired'});
    expectError(await call('POST', `/v1/esims/${iccid}/suspend`), 'invalid_state');
    expectError(await call('POST', `/v1/esims/${iccid}/resume`), 'invalid_state');
    for (const [action, rule] of Object.entries(SIMULATE_ACTIONS)) {
      const answer = await trySimulate(iccid, action, 1);
      if ((rule.from as readonly string[]).includes('expired')) expect(answer.status, action).toBe(200);
      else expectError(answer, 'invalid_state', undefined, action);
    }
  });

  // Usage once per minute per ICCID: behaviour.test.ts, "a usage 429 carries the ICCID bucket's own rate-limit headers".
  test(`rate limits: ${LIMITS.sandboxRequestsPerMinute} requests per minute per credential, then 429 with Retry-After`, async () => {
    const {call} = await client();
    const start = sandbox.log.length;
    const last = await untilRefused(() => call('GET', '/v1/balance'));
    expectError(last, 'rate_limited');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    const calls = sandbox.log.slice(start).filter((entry) => entry.kind === 'request' && entry.status === 200).length;
    expect(calls).toBeGreaterThanOrEqual(LIMITS.sandboxRequestsPerMinute - 3);
  });

  test(`token requests: ${LIMITS.tokenRequestsPerMinute} per minute per client, then 429 rate_limited in the token endpoint's RFC 6749 format`, async () => {
    const form = {grant_type: 'client_credentials', client_id: 'ci_test_tokens', client_secret: 'cs_test_state'};
    sandbox.setCredentials([{clientId: form.client_id, clientSecret: form.client_secret, scopes: []}]);
    const logStart = sandbox.log.length;
    const last = await untilRefused(() => tokenResponse(sandbox.origin, form));
    expectOAuthError(last, 429, 'rate_limited', expect.stringMatching(/Retry in \d+ s/));
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // Each answer, the 429 too, matches the contract: afterEach.
    const tokenAnswers = sandbox.log.slice(logStart).filter((entry) => entry.kind === 'request');
    expect(tokenAnswers).toHaveLength(LIMITS.tokenRequestsPerMinute + 1);
  });
});

// The state on an injected clock, so expiry needs no waiting: what a partner needs after go-live (rolling the signing
// secret, catching up with GET /v1/events, re-enabling an endpoint) and the lists' created_gte/created_lt filters.
const HOUR = 3_600_000;
const ROLL = 'POST /v1/webhook-endpoints/{id}/roll-secret';
type EventList = {data: {id: string; type: string; created_at: string}[]; has_more: boolean; next_cursor: string};
const ENDPOINT = {
  url: 'https://partner.example.org/webhooks/esim',
  enabled_events: ['order.completed', 'order.failed', 'balance.low'],
};

function harness(eventExamples: readonly WebhookEventExample[] = []) {
  let clock = Date.parse('2025-03-14T09:00:00Z');
  const now = () => clock;
  const state = new SandboxState(async () => 204, now, eventExamples);
  const caller = {idempotencyKey: undefined, clientId: 'client-webhooks'};
  let calls = 0;
  const call = (operation: string, params: Record<string, string> = {}, body?: Record<string, unknown>, query = '') =>
    state.answer({...caller, operation, params, body, query: new URLSearchParams(query), requestId: `req_${++calls}`});
  const get = (operation: string, query = '') => call(operation, {}, undefined, query);
  const events = async (query = '') => (await get('GET /v1/events', query)).body as EventList;
  const endpoint = async () =>
    (await call('POST /v1/webhook-endpoints', {}, ENDPOINT)).body as {id: string; secret: string};
  const order = async () => {
    expect((await call('POST /v1/orders', {}, {package_id: SAMPLES.packageId, quantity: 1})).status).toBe(201);
    await state.settled();
  };
  const advance = (ms: number) => (clock += ms);
  const setClock = (iso: string) => advance(Date.parse(iso) - clock);
  return {state, call, get, events, endpoint, order, advance, setClock};
}

/** The `v1` signatures of the last delivery, and which of `secrets` verify it. */
function lastSignedBy(state: SandboxState, ...secrets: string[]) {
  const {headers, body} = state.deliveries.at(-1)!;
  const signatures = headers['X-Webhook-Signature']!.split(' ').map((part) => part.replace(/^v1=/, ''));
  const verifies = (secret: string) => signatures.includes(signWebhook(secret, headers['X-Webhook-Timestamp']!, body));
  return {count: signatures.length, verified: secrets.map(verifies)};
}

test('rolling gives a new secret; during the overlap deliveries verify with either, after it only with the new; 0 revokes the old one at once (after a leak); it defaults to a 24 h overlap and refuses other durations', async () => {
  const {state, call, endpoint, order, advance} = harness();
  const {id, secret: oldSecret} = await endpoint();
  const rolled = await call(ROLL, {id}, {expire_previous_after_hours: 1});
  expect(rolled.status).toBe(200);
  const {secret: newSecret, previous_secret_expires_at} = rolled.body as Record<string, string>;
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(oldSecret);
  expect(Date.parse(previous_secret_expires_at)).toBe(Date.parse('2025-03-14T10:00:00Z'));
  // The secret is shown once: listing never answers it.
  expect(JSON.stringify((await call('GET /v1/webhook-endpoints')).body)).not.toContain(newSecret);
  await order();
  expect(lastSignedBy(state, newSecret, oldSecret), 'during').toEqual({count: 2, verified: [true, true]});
  advance(HOUR);
  await order();
  expect(lastSignedBy(state, newSecret, oldSecret), 'after').toEqual({count: 1, verified: [true, false]});

  const revoked = await call(ROLL, {id}, {expire_previous_after_hours: 0});
  const {secret} = revoked.body as {secret: string};
  expect(revoked.body).toMatchObject({previous_secret_expires_at: null});
  await order();
  expect(lastSignedBy(state, secret, newSecret).verified, 'the leaked secret is revoked').toEqual([true, false]);
  const byDefault = (await call(ROLL, {id})).body as {previous_secret_expires_at: string};
  expect(byDefault.previous_secret_expires_at, 'the default overlap').toBe('2025-03-15T10:00:00Z');
  const refused = await call(ROLL, {id}, {expire_previous_after_hours: 2});
  expectError(refused, 'validation_failed', 'expire_previous_after_hours');
  expectError(await call(ROLL, {id: 'we_missing'}), 'resource_not_found');
});

test('GET /v1/events lists each event as delivered, newest first, filters by type and created_gte, pages by cursor', async () => {
  const {state, get, events, endpoint, order, advance} = harness();
  await endpoint();
  await order();
  const since = new Date(advance(HOUR)).toISOString();
  await order();
  await order();
  const all = await events();
  const created = all.data.map((event) => event.created_at);
  expect(created, 'newest first').toEqual([...created].sort().reverse());
  // Exactly as delivered: the listed event is the delivered body.
  for (const delivery of state.deliveries) expect(all.data).toContainEqual(JSON.parse(delivery.body));
  const completed = await events('type=order.completed');
  expect(completed.data.map((event) => event.type)).toEqual(Array(3).fill('order.completed'));
  expect((await events(`type=order.completed&created_gte=${since}`)).data).toHaveLength(2);
  const first = await events('type=order.completed&limit=2');
  expect(first).toMatchObject({data: [{}, {}], has_more: true});
  const second = await events(`type=order.completed&limit=2&cursor=${first.next_cursor}`);
  expect(second).toMatchObject({data: [{}], has_more: false});
  expect(first.data.map((event) => event.id)).not.toContain(second.data[0]!.id);
  // Older than 30 days: gone from the list.
  advance(31 * 24 * HOUR);
  expect((await events()).data).toHaveLength(0);
  expectError(await get('GET /v1/events', 'created_gte=yesterday'), 'validation_failed', 'created_gte');
});

test('disable and enable round trip; a disabled endpoint gets no deliveries; enabling an enabled one is invalid_state', async () => {
  const {state, call, events, endpoint, order} = harness();
  const {id} = await endpoint();
  const disable = 'POST /v1/sandbox/webhook-endpoints/{id}/disable';
  const enable = 'POST /v1/webhook-endpoints/{id}/enable';
  const disabled = await call(disable, {id});
  expect(disabled).toMatchObject({status: 200, body: {status: 'disabled'}});
  expect(JSON.stringify(disabled.body)).not.toContain('whsec_');
  const before = state.deliveries.length;
  await order();
  expect(state.deliveries.length).toBe(before);
  // Missed while disabled, still listed to catch up with.
  expect((await events('type=order.completed')).data).toHaveLength(1);
  expect(await call(enable, {id})).toMatchObject({status: 200, body: {status: 'enabled'}});
  await order();
  expect(state.deliveries.length).toBe(before + 1);
  expectError(await call(enable, {id}), 'invalid_state');
  expect((await call(disable, {id})).status).toBe(200);
  expectError(await call(disable, {id}), 'invalid_state');
});

test('GET /v1/balance/transactions and GET /v1/orders filter by created_gte and created_lt; a bad timestamp names its field', async () => {
  const {get, order, setClock} = harness();
  const at = ['2025-03-14T09:00:00Z', '2025-04-02T09:00:00Z', '2025-05-01T00:00:00Z'];
  for (const time of at) {
    setClock(time);
    await order();
  }
  const april = 'created_gte=2025-04-01T00:00:00Z&created_lt=2025-05-01T00:00:00Z';
  const createdOf = async (operation: string, query?: string) =>
    ((await get(operation, query)).body as {data: {created_at: string}[]}).data.map((item) => item.created_at);
  for (const operation of ['GET /v1/balance/transactions', 'GET /v1/orders']) {
    expect(await createdOf(operation), operation).toEqual([...at].reverse());
    expect(await createdOf(operation, april), operation).toEqual([at[1]]);
    expectError(await get(operation, 'created_lt=next-week'), 'validation_failed', 'created_lt', operation);
  }
});

test('POST …/test sends a test event of the body’s type (one of the event catalogue) carrying that type’s example resource, listed by GET /v1/events', async () => {
  const examples = webhookEventExamples(document);
  const {state, call, events, endpoint} = harness(examples);
  const {id} = await endpoint();
  const sendTest = (body?: {type: string}) => call('POST /v1/webhook-endpoints/{id}/test', {id}, body);
  const lastDelivered = () => JSON.parse(state.deliveries.at(-1)!.body) as {id: string; type: string; data: unknown};
  const eventTypes = (document.components.schemas as Record<string, {enum?: string[]}>).EventType!.enum!;
  // A type the endpoint does not subscribe to is sent too: a test goes where you point it.
  const type = 'esim.activated';
  const sent = await sendTest({type});
  expect(sent).toMatchObject({status: 200, body: {type, delivered: true}});
  const delivered = lastDelivered();
  expect(delivered).toMatchObject({id: (sent.body as {event_id: string}).event_id, type, livemode: false, test: true});
  expect((await events(`type=${type}`)).data).toEqual([delivered]);
  // Without a type: the endpoint's first subscribed event.
  expect((await sendTest()).body).toMatchObject({type: 'order.completed'});
  // Every type of the catalogue is accepted (an unknown one is refused: behaviour.test.ts, lists), carrying the
  // resource the catalogue shows for that type, as the contract's Event says, not a stub.
  for (const each of eventTypes) {
    expect((await sendTest({type: each})).status, each).toBe(200);
    expect(lastDelivered().data, each).toEqual(examples.find((example) => example.type === each)!.payload.data);
  }
});
