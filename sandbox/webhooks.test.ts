/**
 * The state on an injected clock, so expiry needs no waiting: the webhook operations a partner needs after
 * go-live (rolling the signing secret, catching up with GET /v1/events, re-enabling an endpoint) and the
 * lists' created_gte/created_lt filters.
 */
import {expect, test} from '@playwright/test';

import {SAMPLES} from '../src/constants/api';
import {webhookEventExamples, type WebhookEventExample} from '../lib/contract/webhooks';
import {sandboxDocument} from './server';
import {SandboxState, signWebhook} from './state';
import {expectError} from './test-helpers';

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
  /** A list, with its query. */
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
  const {document} = await sandboxDocument();
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
