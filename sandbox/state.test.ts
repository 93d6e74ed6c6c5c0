/**
 * The sandbox remembers and refuses what a real sandbox would: an integrator's journey over every
 * operation the state answers, and each documented rule (src/constants/behaviour.ts and the brief).
 * Every answer is checked against the contract (status documented, body schema, required headers).
 */
import {expect, test} from '@playwright/test';

import {LIMITS, SAMPLE_PACKAGE, SAMPLES, SANDBOX} from '../src/constants/api';
import {SIMULATE_ACTIONS, STATE_RULES} from '../src/constants/behaviour';
import {listOperations, type OpenApiDocument} from '../lib/contract/openapi';
import {PACKAGES} from './catalogue';
import type {Sandbox} from './server';
import {SandboxState, STARTING_BALANCE} from './state';
import {
  checkedSandbox,
  expectAnswersMatchContract,
  expectError,
  expectOAuthError,
  expectReplay,
  newClient,
  tokenResponse,
  type Result,
} from './test-helpers';

let sandbox: Sandbox;
let document: OpenApiDocument;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  ({sandbox, document} = await checkedSandbox({webhookTransport: async () => 204}));
});

test.afterAll(async () => {
  await sandbox?.close();
});

test.afterEach(() => expectAnswersMatchContract(sandbox));

const client = () => newClient(sandbox, document);

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
  expect(await post('/v1/sandbox/balance', {amount: expected + 1000})).toMatchObject({
    available: {amount: expected + 1000},
  });
  const oldestFirst = await transactions();
  expect(oldestFirst).toEqual(sandbox.state.transactions(credential.clientId));
  expect(oldestFirst.map((t) => `${t.type} ${t.source_id?.slice(0, 4) ?? null}`).join(', ')).toBe(
    'order ord_, topup top_, order ord_, refund rfd_, order ord_, refund rfd_, deposit null',
  );
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
    const refusedAgain = await call('POST', `${orderPath}/cancel`, undefined, {key: 'cancel-processing'});
    expectReplay(refusedAgain, refused);
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
    let last: Result;
    do {
      last = await call('GET', '/v1/balance');
    } while (last.status === 200);
    expectError(last, 'rate_limited');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    const calls = sandbox.log.filter(
      (entry) => entry.kind === 'request' && entry.status === 200 && entry.operation !== 'POST /oauth/token',
    ).length;
    expect(calls).toBeGreaterThanOrEqual(LIMITS.sandboxRequestsPerMinute - 3);
  });

  test(`token requests: ${LIMITS.tokenRequestsPerMinute} per minute per client, then 429 rate_limited in the token endpoint's RFC 6749 format`, async () => {
    const form = {grant_type: 'client_credentials', client_id: 'ci_test_tokens', client_secret: 'cs_test_state'};
    sandbox.setCredentials([{clientId: form.client_id, clientSecret: form.client_secret, scopes: []}]);
    const logStart = sandbox.log.length;
    let last: Awaited<ReturnType<typeof tokenResponse>>;
    do {
      last = await tokenResponse(sandbox.origin, form);
    } while (last.status === 200);
    expectOAuthError(last, 429, 'rate_limited', expect.stringMatching(/Retry in \d+ s/));
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    const tokenAnswers = sandbox.log.slice(logStart).filter((entry) => entry.kind === 'request');
    expect(tokenAnswers).toHaveLength(LIMITS.tokenRequestsPerMinute + 1);
    expect(tokenAnswers.flatMap((entry) => (entry.kind === 'request' && entry.answerProblems) || [])).toEqual([]);
  });
});
