/**
 * The sandbox remembers and refuses what a real sandbox would: an integrator's journey over every
 * operation the state answers, each documented rule (src/constants/behaviour.ts and the brief),
 * and signed webhook deliveries to a registered endpoint. Every answer is checked against the
 * contract (status documented, body schema, required headers).
 */
import http from 'node:http';
import type {AddressInfo} from 'node:net';

import {expect, test} from '@playwright/test';

import {LIMITS, SAMPLE_PACKAGE, SAMPLES, SANDBOX} from '../src/constants/api';
import {SIMULATE_ACTIONS, STATE_RULES, USAGE_THRESHOLDS} from '../src/constants/behaviour';
import {listOperations, type OpenApiDocument} from '../lib/contract/openapi';
import {answerChecker, exampleValidator} from '../lib/contract/validator';
import {PACKAGES} from './catalogue';
import {documentScopes, sandboxDocument, startSandbox, type Sandbox, type SandboxCredential} from './server';
import {SandboxState, STARTING_BALANCE, signWebhook, type BalanceTransaction} from './state';

let sandbox: Sandbox;
let document: OpenApiDocument;
let receiver: http.Server;
/** Deliveries as the partner's endpoint received them. */
const received: {path: string; headers: http.IncomingHttpHeaders; body: string}[] = [];
let clients = 0;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  document = (await sandboxDocument()).document;
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString()});
      response.writeHead(request.url?.includes('failing') ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  sandbox = await startSandbox({
    credentials: [],
    checkAnswer: answerChecker(document),
    // The partner's https URL, delivered to the local receiver.
    webhookTransport: async (url, headers, body) =>
      (await fetch(`${receiverOrigin}${new URL(url).pathname}`, {method: 'POST', headers, body})).status,
  });
});

test.afterAll(async () => {
  await sandbox?.close();
  receiver?.close();
});

test.afterEach(() => {
  const problems = sandbox.log.flatMap((entry) => (entry.kind === 'request' ? (entry.answerProblems ?? []) : []));
  expect(problems, 'every answer matches the contract').toEqual([]);
});

type Result = {status: number; body: Record<string, unknown>; headers: Headers};

/** A fresh credential with every scope: its own balance, orders and eSIMs. */
async function client(scopes = documentScopes(document)) {
  const credential: SandboxCredential = {clientId: `ci_test_state${++clients}`, clientSecret: 'cs_test_state', scopes};
  sandbox.setCredentials([credential]);
  const token = (await (
    await fetch(`${sandbox.origin}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credential.clientId,
        client_secret: credential.clientSecret,
      }),
    })
  ).json()) as {access_token: string};
  let keys = 0;
  const call = async (method: string, apiPath: string, body?: unknown, key?: string): Promise<Result> => {
    const response = await fetch(`${sandbox.origin}${apiPath}`, {
      method,
      headers: {
        Authorization: `Bearer ${token.access_token}`,
        ...(body !== undefined && {'Content-Type': 'application/json'}),
        ...(method === 'POST' && {'Idempotency-Key': key ?? `${credential.clientId}-${++keys}`}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      headers: response.headers,
    };
  };
  const order = async (packageId: string = SAMPLES.packageId, quantity = 1) => {
    const result = await call('POST', '/v1/orders', {package_id: packageId, quantity});
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body as {id: string; esims: {iccid: string}[]};
  };
  const simulate = (iccid: string, action: string, mb?: number) =>
    call('POST', `/v1/sandbox/esims/${iccid}/simulate`, {action, ...(mb && {mb})});
  return {credential, call, order, simulate};
}

const code = (result: Result) => (result.body.error as {code?: string} | undefined)?.code;

test('an integrator journey: every operation the state answers, with what it remembers', async () => {
  const {credential, call, order, simulate} = await client();
  const start = sandbox.log.length;
  expect((await call('GET', '/v1/destinations')).status).toBe(200);
  const packages = await call('GET', '/v1/packages?country=JP&limit=3');
  expect(packages.body).toMatchObject({has_more: true, next_cursor: expect.stringMatching(/^c_/)});
  // What a walk lists: behaviour.test.ts, "the catalogue, destinations …" (and "trigger packages are never …").
  const next = await call('GET', `/v1/packages?country=JP&limit=3&cursor=${packages.body.next_cursor as string}`);
  expect(next.status).toBe(200);
  expect((await call('GET', `/v1/packages/${SAMPLES.packageId}`)).body).toMatchObject({id: SAMPLES.packageId});

  const created = await order();
  const iccid = created.esims[0]!.iccid;
  expect(iccid.startsWith(SANDBOX.iccidPrefix)).toBe(true);
  expect((await call('GET', `/v1/orders/${created.id}`)).body).toMatchObject({id: created.id, status: 'completed'});
  expect(((await call('GET', '/v1/orders?status=completed')).body.data as {id: string}[]).map((o) => o.id)).toEqual([
    created.id,
  ]);
  expect(
    ((await call('GET', `/v1/esims?order_id=${created.id}`)).body.data as {iccid: string}[]).map((e) => e.iccid),
  ).toEqual([iccid]);
  expect((await call('PATCH', `/v1/esims/${iccid}`, {label: 'Anna – Tokyo'})).body).toMatchObject({
    label: 'Anna – Tokyo',
  });
  expect((await call('GET', `/v1/esims/${iccid}`)).body).toMatchObject({status: 'ready', label: 'Anna – Tokyo'});

  expect((await simulate(iccid, 'installed')).body).toMatchObject({status: 'installed'});
  expect((await simulate(iccid, 'activated')).body).toMatchObject({status: 'active', activated_at: expect.any(String)});
  expect((await simulate(iccid, 'consume_data', 1000)).status).toBe(200);
  expect((await call('GET', `/v1/esims/${iccid}/usage`)).body).toMatchObject({
    data_used_mb: 1000,
    data_remaining_mb: SAMPLE_PACKAGE.dataMb - 1000,
  });
  const topupPackages = (await call('GET', `/v1/esims/${iccid}/topup-packages`)).body.data as {id: string}[];
  expect(topupPackages.map((pkg) => pkg.id)).toContain(SAMPLES.topupPackageId);
  const topup = await call('POST', `/v1/esims/${iccid}/topups`, {package_id: SAMPLES.topupPackageId});
  expect(topup.body).toMatchObject({status: 'applied', iccid});
  const topups = (await call('GET', `/v1/esims/${iccid}/topups`)).body;
  expect(topups).toMatchObject({data: [{id: (topup.body as {id: string}).id}], has_more: false});
  expect((await call('POST', `/v1/esims/${iccid}/suspend`)).body).toMatchObject({status: 'suspended'});
  expect((await call('POST', `/v1/esims/${iccid}/resume`)).body).toMatchObject({status: 'active'});

  const second = await order();
  const refund = await call('POST', '/v1/refunds', {iccid: second.esims[0]!.iccid, reason: 'customer_cancelled'});
  expect(refund.body).toMatchObject({status: 'succeeded', order_id: second.id});
  expect((await call('GET', `/v1/orders/${second.id}`)).body).toMatchObject({status: 'cancelled'});
  const third = await order();
  expect((await call('POST', `/v1/orders/${third.id}/cancel`)).body).toMatchObject({status: 'cancelled'});

  const endpoint = await call('POST', '/v1/webhook-endpoints', {
    url: 'https://partner.example.org/hooks',
    enabled_events: ['order.completed'],
  });
  expect(endpoint.body.secret).toMatch(/^whsec_/);
  expect(((await call('GET', '/v1/webhook-endpoints')).body.data as {id: string}[]).map((e) => e.id)).toEqual([
    endpoint.body.id,
  ]);
  expect((await call('POST', `/v1/webhook-endpoints/${endpoint.body.id as string}/test`)).body).toMatchObject({
    delivered: true,
    response_status: 204,
  });
  const endpointPath = `/v1/webhook-endpoints/${endpoint.body.id as string}`;
  const rolled = await call('POST', `${endpointPath}/roll-secret`, {expire_previous_after_hours: 1});
  expect(rolled.body.secret).toMatch(/^whsec_/);
  expect(rolled.body.secret).not.toBe(endpoint.body.secret);
  expect(
    (await call('POST', `/v1/sandbox/webhook-endpoints/${endpoint.body.id as string}/disable`)).body,
  ).toMatchObject({status: 'disabled'});
  expect((await call('POST', `${endpointPath}/enable`)).body).toMatchObject({status: 'enabled'});
  expect(((await call('GET', '/v1/events?limit=100')).body.data as {type: string}[]).length).toBeGreaterThan(0);
  expect((await call('DELETE', endpointPath)).status).toBe(204);
  expect(
    (
      await call('POST', '/v1/widget-sessions', {
        mode: 'manage',
        allowed_origins: ['https://shop.example.org'],
        customer_reference: 'booking-88412',
        iccid,
      })
    ).status,
  ).toBe(201);

  // The balance adds up every movement: three orders and a top-up out, a refund and a cancel's refund in.
  const price = SAMPLE_PACKAGE.wholesaleMinor;
  const topupPrice = PACKAGES.find((pkg) => pkg.id === SAMPLES.topupPackageId)!.wholesale_price.amount;
  const expected = STARTING_BALANCE - 3 * price - topupPrice + 2 * price;
  expect((await call('GET', '/v1/balance')).body).toMatchObject({available: {amount: expected}});
  expect((await call('POST', '/v1/sandbox/balance', {amount: expected + 1000})).body).toMatchObject({
    available: {amount: expected + 1000},
  });
  const listed = (await call('GET', '/v1/balance/transactions?limit=100')).body.data as BalanceTransaction[];
  expect(listed).toEqual([...sandbox.state.transactions(credential.clientId)].reverse());
  const oldestFirst = [...listed].reverse();
  expect(oldestFirst.map((t) => t.type)).toEqual(['order', 'topup', 'order', 'refund', 'order', 'refund', 'deposit']);
  expect(oldestFirst.map((t) => t.source_id?.slice(0, 4) ?? null)).toEqual([
    'ord_',
    'top_',
    'ord_',
    'rfd_',
    'ord_',
    'rfd_',
    null,
  ]);
  // Each balance_after is the one before plus the amount.
  let running = STARTING_BALANCE;
  for (const transaction of oldestFirst) {
    running += transaction.amount.amount;
    expect(transaction.balance_after.amount).toBe(running);
  }
  expect(running).toBe(expected + 1000);

  const touched = new Set(
    sandbox.log.slice(start).flatMap((entry) => (entry.kind === 'request' && entry.operation ? [entry.operation] : [])),
  );
  expect([...SandboxState.OPERATIONS].filter((operation) => !touched.has(operation))).toEqual([]);
});

test('the state knows only operations of the contract', () => {
  const contract = listOperations(document).map(({method, path}) => `${method} ${path}`);
  expect(SandboxState.OPERATIONS.filter((operation) => !contract.includes(operation))).toEqual([]);
  expect(STATE_RULES.map((rule) => rule.operation).filter((operation) => !contract.includes(operation))).toEqual([]);
});

test.describe('the documented rules', () => {
  test('refund and cancel: only never-installed eSIMs; a refunded eSIM cannot be refunded, topped up or activated, its profile revoked; a deleted profile never activates', async () => {
    // Installed: the natural triggers of esim_not_refundable and order_not_cancellable (behaviour.test.ts).
    const {call, order, simulate} = await client();
    // A suspended eSIM was never installed, yet it blocks the cancel too: only `ready` eSIMs allow it.
    const suspended = await order();
    await call('POST', `/v1/esims/${suspended.esims[0]!.iccid}/suspend`);
    expect(code(await call('POST', `/v1/orders/${suspended.id}/cancel`))).toBe('order_not_cancellable');

    const refunded = (await order()).esims[0]!.iccid;
    expect((await call('POST', '/v1/refunds', {iccid: refunded})).status).toBe(201);
    expect(code(await call('POST', '/v1/refunds', {iccid: refunded}))).toBe('esim_not_refundable');
    expect(code(await call('POST', `/v1/esims/${refunded}/topups`, {package_id: SAMPLES.topupPackageId}))).toBe(
      'topup_not_allowed',
    );
    expect(code(await simulate(refunded, 'activated'))).toBe('invalid_state');
    const revoked = (await call('GET', `/v1/esims/${refunded}`)).body;
    expect(revoked.profile_state, 'a refund revokes the profile').toBe('deleted');

    // A profile the traveller deleted never installs again: support reissues it.
    const deleted = (await order()).esims[0]!.iccid;
    await simulate(deleted, 'installed');
    await simulate(deleted, 'profile_deleted');
    const activated = await simulate(deleted, 'activated');
    expect(code(activated), JSON.stringify(activated.body)).toBe('invalid_state');
  });

  test('a state refusal that passes (a processing order, a suspended eSIM) is after_fix: the same key replays it, a new key goes through', async () => {
    const {call, order} = await client();
    const processing = await call('POST', '/v1/orders', {package_id: SANDBOX.slowPackageId, quantity: 1});
    const processingId = (processing.body as {id: string}).id;
    expect(processing.body).toMatchObject({status: 'processing'});
    const refused = await call('POST', `/v1/orders/${processingId}/cancel`, undefined, 'cancel-processing');
    expect(refused.body.error).toMatchObject({code: 'order_not_cancellable', retry: 'after_fix'});
    expect((await call('GET', `/v1/orders/${processingId}`)).body).toMatchObject({status: 'completed'});
    expect(code(await call('POST', `/v1/orders/${processingId}/cancel`, undefined, 'cancel-processing'))).toBe(
      'order_not_cancellable',
    );
    expect((await call('POST', `/v1/orders/${processingId}/cancel`)).status).toBeLessThan(300);

    const iccid = (await order()).esims[0]!.iccid;
    await call('POST', `/v1/esims/${iccid}/suspend`);
    const notRefundable = await call('POST', '/v1/refunds', {iccid}, 'refund-suspended');
    expect(notRefundable.body.error).toMatchObject({code: 'esim_not_refundable', retry: 'after_fix'});
    const noTopup = await call('POST', `/v1/esims/${iccid}/topups`, {package_id: SAMPLES.topupPackageId});
    expect(noTopup.body.error).toMatchObject({code: 'topup_not_allowed', retry: 'after_fix'});
    await call('POST', `/v1/esims/${iccid}/resume`);
    expect(code(await call('POST', '/v1/refunds', {iccid}, 'refund-suspended'))).toBe('esim_not_refundable');
    expect((await call('POST', '/v1/refunds', {iccid})).status).toBe(201);
  });

  test('a cancel retried with its Idempotency-Key replays the first answer, even with {} for no body; with another key it is order_not_cancellable', async () => {
    const {call, order} = await client();
    const created = await order();
    const first = await call('POST', `/v1/orders/${created.id}/cancel`, undefined, 'cancel-once');
    // No body and an empty JSON object are the same request.
    const replay = await call('POST', `/v1/orders/${created.id}/cancel`, {}, 'cancel-once');
    expect(first.status).toBeLessThan(300);
    expect(replay.status).toBe(first.status);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(code(await call('POST', `/v1/orders/${created.id}/cancel`))).toBe('order_not_cancellable');
    expect((await call('GET', `/v1/orders/${created.id}`)).body).toMatchObject({status: 'cancelled'});
  });

  test('an expired eSIM: no top-up, no suspend, no further simulation', async () => {
    const {call, order, simulate} = await client();
    const iccid = (await order()).esims[0]!.iccid;
    await simulate(iccid, 'activated');
    // No top-up: the natural trigger of topup_not_allowed (behaviour.test.ts).
    expect((await simulate(iccid, 'expire')).body).toMatchObject({status: 'expired'});
    expect(code(await call('POST', `/v1/esims/${iccid}/suspend`))).toBe('invalid_state');
    expect(code(await call('POST', `/v1/esims/${iccid}/resume`))).toBe('invalid_state');
    for (const [action, rule] of Object.entries(SIMULATE_ACTIONS)) {
      const allowed = (rule.from as readonly string[]).includes('expired');
      expect(code(await simulate(iccid, action, 1)), action).toBe(allowed ? undefined : 'invalid_state');
    }
  });

  test('a top-up package that does not fit the eSIM is refused; data used up makes it depleted, a top-up active again', async () => {
    const {call, order, simulate} = await client();
    const iccid = (await order()).esims[0]!.iccid;
    expect(code(await call('POST', `/v1/esims/${iccid}/topups`, {package_id: 'eu-10gb-30d'}))).toBe(
      'topup_not_allowed',
    );
    await simulate(iccid, 'activated');
    expect((await simulate(iccid, 'consume_data', SAMPLE_PACKAGE.dataMb)).body).toMatchObject({status: 'depleted'});
    await call('POST', `/v1/esims/${iccid}/topups`, {package_id: SAMPLES.topupPackageId});
    expect((await call('GET', `/v1/esims/${iccid}`)).body).toMatchObject({status: 'active'});
  });

  // Usage once per minute per ICCID: behaviour.test.ts, "a usage 429 carries the ICCID bucket's own rate-limit headers".
  test(`rate limits: ${LIMITS.sandboxRequestsPerMinute} requests per minute per credential, then 429 with Retry-After`, async () => {
    const {call} = await client();
    let last: Result;
    do {
      last = await call('GET', '/v1/balance');
    } while (last.status === 200);
    expect(code(last)).toBe('rate_limited');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    const calls = sandbox.log.filter(
      (entry) => entry.kind === 'request' && entry.status === 200 && entry.operation !== 'POST /oauth/token',
    ).length;
    expect(calls).toBeGreaterThanOrEqual(LIMITS.sandboxRequestsPerMinute - 3);
  });

  test(`token requests: ${LIMITS.tokenRequestsPerMinute} per minute per client, then 429 rate_limited in the token endpoint's RFC 6749 format`, async () => {
    const clientId = `ci_test_tokens${++clients}`;
    sandbox.setCredentials([{clientId, clientSecret: 'cs_test_state', scopes: []}]);
    const logStart = sandbox.log.length;
    let last: Response;
    do {
      last = await fetch(`${sandbox.origin}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: 'cs_test_state',
        }),
      });
    } while (last.status === 200);
    expect(last.status).toBe(429);
    expect(await last.json()).toEqual({
      error: 'rate_limited',
      error_description: expect.stringMatching(/Retry in \d+ s/),
    });
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    const tokenAnswers = sandbox.log.slice(logStart).filter((entry) => entry.kind === 'request');
    expect(tokenAnswers).toHaveLength(LIMITS.tokenRequestsPerMinute + 1);
    expect(tokenAnswers.flatMap((entry) => (entry.kind === 'request' && entry.answerProblems) || [])).toEqual([]);
  });
});

test('webhooks: every event a journey causes reaches the endpoint, signed with its secret', async () => {
  const {call, order, simulate} = await client();
  received.length = 0;
  const endpoint = await call('POST', '/v1/webhook-endpoints', {
    url: 'https://partner.example.org/acme-events',
    enabled_events: [
      'order.completed',
      'esim.installed',
      'esim.activated',
      'esim.usage_threshold',
      'topup.applied',
      'refund.succeeded',
      'esim.expired',
    ],
  });
  const secret = endpoint.body.secret as string;
  const iccid = (await order()).esims[0]!.iccid;
  await simulate(iccid, 'activated');
  await simulate(iccid, 'consume_data', SAMPLE_PACKAGE.dataMb);
  await call('POST', `/v1/esims/${iccid}/topups`, {package_id: SAMPLES.topupPackageId});
  await simulate(iccid, 'expire');
  await call('POST', '/v1/refunds', {iccid: (await order()).esims[0]!.iccid});
  await sandbox.state.settled();

  const {AcmeConnect} = (await import('../sdk/index.mjs')) as typeof import('../sdk/index');
  const acme = new AcmeConnect({clientId: 'x', clientSecret: 'y', environment: 'sandbox'});
  const events = received.map((delivery) =>
    acme.webhooks.constructEvent(delivery.body, delivery.headers as Record<string, string>, secret),
  );
  const threshold = (event: (typeof events)[number]) => (event.data as {threshold?: number}).threshold;
  expect(events.map((event) => `${event.type}${threshold(event) ? ` ${threshold(event)}` : ''}`)).toEqual([
    'order.completed',
    'esim.installed',
    'esim.activated',
    ...USAGE_THRESHOLDS.map((threshold) => `esim.usage_threshold ${threshold}`),
    'topup.applied',
    'esim.expired',
    'order.completed',
    'refund.succeeded',
  ]);
  const validator = exampleValidator(document);
  for (const delivery of received) {
    expect(delivery.path).toBe('/acme-events');
    const [timestamp, signature] = [
      delivery.headers['x-webhook-timestamp'] as string,
      delivery.headers['x-webhook-signature'] as string,
    ];
    expect(signature).toBe(`v1=${signWebhook(secret, timestamp, delivery.body)}`);
    expect(
      validator.validate(JSON.parse(delivery.body), {
        method: 'WEBHOOK',
        path: 'event',
        target: 'request',
        pointer: '',
        abridged: false,
      }),
    ).toEqual([]);
  }
  // A wrong secret does not verify.
  expect(() =>
    acme.webhooks.constructEvent(received[0]!.body, received[0]!.headers as Record<string, string>, 'whsec_wrong'),
  ).toThrow();
});
