/**
 * The three webhook operations a partner needs after go-live: rolling the signing secret with an
 * overlap (or at once, after a leak), catching up with GET /v1/events after an outage, and
 * re-enabling a disabled endpoint. The state runs on an injected clock, so expiry needs no waiting.
 */
import {expect, test} from '@playwright/test';

import {SAMPLES} from '../src/constants/api';
import {errorRule} from '../src/constants/behaviour';
import {listOperations} from '../lib/contract/openapi';
import {webhookEventExamples, type WebhookEventExample} from '../lib/contract/webhooks';
import {sandboxDocument} from './server';
import {SandboxState, signWebhook, type Answer, type Call} from './state';

const HOUR = 3_600_000;

function harness(eventExamples: readonly WebhookEventExample[] = []) {
  let clock = Date.parse('2025-03-14T09:00:00Z');
  const state = new SandboxState(
    async () => 204,
    () => clock,
    eventExamples,
  );
  let calls = 0;
  const call = (operation: string, params: Record<string, string> = {}, body?: Record<string, unknown>, query = '') =>
    state.answer({
      operation,
      params,
      query: new URLSearchParams(query),
      body,
      idempotencyKey: undefined,
      clientId: 'client-webhooks',
      requestId: `req_${++calls}`,
    } satisfies Call);
  const endpoint = async () => {
    const created = await call(
      'POST /v1/webhook-endpoints',
      {},
      {
        url: 'https://partner.example.org/webhooks/esim',
        enabled_events: ['order.completed', 'order.failed', 'balance.low'],
      },
    );
    return created.body as {id: string; secret: string};
  };
  const order = async () => {
    const answer = await call('POST /v1/orders', {}, {package_id: SAMPLES.packageId, quantity: 1});
    expect(answer.status).toBe(201);
    await state.settled();
  };
  return {state, call, endpoint, order, advance: (ms: number) => (clock += ms)};
}

/** The `v1` signatures a delivery carries, as a verifier splits them. */
function signatures(headers: Record<string, string>) {
  return headers['X-Webhook-Signature']!.split(' ').map((part) => part.replace(/^v1=/, ''));
}

function verifies(secret: string, delivery: {headers: Record<string, string>; body: string}) {
  const expected = signWebhook(secret, delivery.headers['X-Webhook-Timestamp']!, delivery.body);
  return signatures(delivery.headers).includes(expected);
}

const errorCode = (answer: Answer) => (answer.body as {error: {code: string}}).error.code;

test('the webhook operations are in the contract and answered by the sandbox state', async () => {
  const operations = listOperations((await sandboxDocument()).document).map((op) => `${op.method} ${op.path}`);
  for (const operation of [
    'POST /v1/webhook-endpoints/{id}/roll-secret',
    'POST /v1/webhook-endpoints/{id}/enable',
    'POST /v1/sandbox/webhook-endpoints/{id}/disable',
    'GET /v1/events',
  ]) {
    expect(operations.map((op) => op.toUpperCase())).toContain(operation.toUpperCase());
    expect(SandboxState.OPERATIONS).toContain(operation);
  }
});

test('rolling gives a new secret; during the overlap deliveries verify with either, after it only with the new', async () => {
  const {state, call, endpoint, order, advance} = harness();
  const {id, secret: oldSecret} = await endpoint();
  const rolled = await call('POST /v1/webhook-endpoints/{id}/roll-secret', {id}, {expire_previous_after_hours: 1});
  expect(rolled.status).toBe(200);
  const {secret: newSecret, previous_secret_expires_at} = rolled.body as {
    secret: string;
    previous_secret_expires_at: string;
  };
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(oldSecret);
  expect(Date.parse(previous_secret_expires_at)).toBe(Date.parse('2025-03-14T10:00:00Z'));
  // The secret is shown once: listing never answers it.
  const list = await call('GET /v1/webhook-endpoints');
  expect(JSON.stringify(list.body)).not.toContain(newSecret);

  await order();
  const during = state.deliveries.at(-1)!;
  expect(signatures(during.headers)).toHaveLength(2);
  expect(verifies(newSecret, during)).toBe(true);
  expect(verifies(oldSecret, during)).toBe(true);

  advance(HOUR);
  await order();
  const after = state.deliveries.at(-1)!;
  expect(signatures(after.headers)).toHaveLength(1);
  expect(verifies(newSecret, after)).toBe(true);
  expect(verifies(oldSecret, after)).toBe(false);
});

test('after a leak, expire_previous_after_hours 0 revokes the old secret at once', async () => {
  const {state, call, endpoint, order} = harness();
  const {id, secret: leaked} = await endpoint();
  const rolled = await call('POST /v1/webhook-endpoints/{id}/roll-secret', {id}, {expire_previous_after_hours: 0});
  const {secret, previous_secret_expires_at} = rolled.body as {secret: string; previous_secret_expires_at: null};
  expect(previous_secret_expires_at).toBeNull();
  await order();
  const delivery = state.deliveries.at(-1)!;
  expect(verifies(secret, delivery)).toBe(true);
  expect(verifies(leaked, delivery)).toBe(false);
});

test('roll-secret defaults to a 24 h overlap and refuses other durations', async () => {
  const {call, endpoint} = harness();
  const {id} = await endpoint();
  const rolled = await call('POST /v1/webhook-endpoints/{id}/roll-secret', {id});
  expect((rolled.body as {previous_secret_expires_at: string}).previous_secret_expires_at).toBe('2025-03-15T09:00:00Z');
  const refused = await call('POST /v1/webhook-endpoints/{id}/roll-secret', {id}, {expire_previous_after_hours: 2});
  expect(refused.status).toBe(errorRule('validation_failed').status);
  expect((refused.body as {error: {param: string}}).error.param).toBe('expire_previous_after_hours');
  const missing = await call('POST /v1/webhook-endpoints/{id}/roll-secret', {id: 'we_missing'});
  expect(errorCode(missing)).toBe('resource_not_found');
});

test('GET /v1/events lists each event as delivered, newest first, filters by type and created_gte, pages by cursor', async () => {
  const {state, call, endpoint, order, advance} = harness();
  await endpoint();
  await order();
  const since = new Date(advance(HOUR)).toISOString();
  await order();
  await order();

  const all = await call('GET /v1/events');
  const events = (all.body as {data: {id: string; type: string; created_at: string}[]}).data;
  expect(events.length).toBeGreaterThanOrEqual(3);
  expect(events.map((event) => event.created_at)).toEqual(
    [...events.map((event) => event.created_at)].sort().reverse(),
  );
  // Exactly as delivered: the listed event is the delivered body.
  for (const delivery of state.deliveries) {
    expect(events).toContainEqual(JSON.parse(delivery.body));
  }

  const completed = (await call('GET /v1/events', {}, undefined, 'type=order.completed')).body as {
    data: {type: string}[];
  };
  expect(completed.data.length).toBe(3);
  expect(completed.data.every((event) => event.type === 'order.completed')).toBe(true);

  const recent = (await call('GET /v1/events', {}, undefined, `type=order.completed&created_gte=${since}`)).body as {
    data: unknown[];
  };
  expect(recent.data.length).toBe(2);

  const first = (await call('GET /v1/events', {}, undefined, 'type=order.completed&limit=2')).body as {
    data: {id: string}[];
    has_more: boolean;
    next_cursor: string;
  };
  expect(first.data).toHaveLength(2);
  expect(first.has_more).toBe(true);
  const second = (
    await call('GET /v1/events', {}, undefined, `type=order.completed&limit=2&cursor=${first.next_cursor}`)
  ).body as {data: {id: string}[]; has_more: boolean};
  expect(second.data).toHaveLength(1);
  expect(second.has_more).toBe(false);
  expect(first.data.map((event) => event.id)).not.toContain(second.data[0]!.id);

  // Older than 30 days: gone from the list.
  advance(31 * 24 * HOUR);
  expect(((await call('GET /v1/events')).body as {data: unknown[]}).data).toHaveLength(0);

  const bad = await call('GET /v1/events', {}, undefined, 'created_gte=yesterday');
  expect(errorCode(bad)).toBe('validation_failed');
});

test('disable and enable round trip; a disabled endpoint gets no deliveries; enabling an enabled one is invalid_state', async () => {
  const {state, call, endpoint, order} = harness();
  const {id} = await endpoint();
  const disabled = await call('POST /v1/sandbox/webhook-endpoints/{id}/disable', {id});
  expect(disabled.status).toBe(200);
  expect((disabled.body as {status: string}).status).toBe('disabled');
  expect(JSON.stringify(disabled.body)).not.toContain('whsec_');

  const before = state.deliveries.length;
  await order();
  expect(state.deliveries.length).toBe(before);
  // Missed while disabled, still listed to catch up with.
  expect(
    ((await call('GET /v1/events', {}, undefined, 'type=order.completed')).body as {data: unknown[]}).data,
  ).toHaveLength(1);

  const enabled = await call('POST /v1/webhook-endpoints/{id}/enable', {id});
  expect(enabled.status).toBe(200);
  expect((enabled.body as {status: string}).status).toBe('enabled');
  await order();
  expect(state.deliveries.length).toBe(before + 1);

  const again = await call('POST /v1/webhook-endpoints/{id}/enable', {id});
  expect(again.status).toBe(errorRule('invalid_state').status);
  expect(errorCode(again)).toBe('invalid_state');
  expect((await call('POST /v1/sandbox/webhook-endpoints/{id}/disable', {id})).status).toBe(200);
  expect(errorCode(await call('POST /v1/sandbox/webhook-endpoints/{id}/disable', {id}))).toBe('invalid_state');
});

test('POST …/test sends a test event of the body’s type (one of the event catalogue) carrying that type’s example resource, listed by GET /v1/events', async () => {
  const {document} = await sandboxDocument();
  const examples = webhookEventExamples(document);
  const {state, call, endpoint} = harness(examples);
  const {id} = await endpoint();
  const eventTypes = (document.components.schemas as Record<string, {enum?: string[]}>).EventType!.enum!;
  // A type the endpoint does not subscribe to is sent too: a test goes where you point it.
  const type = 'esim.activated';
  expect(eventTypes).toContain(type);
  const sent = await call('POST /v1/webhook-endpoints/{id}/test', {id}, {type});
  expect(sent.status).toBe(200);
  expect(sent.body).toMatchObject({type, delivered: true});
  const delivered = JSON.parse(state.deliveries.at(-1)!.body) as {id: string; type: string; data: unknown};
  expect(delivered).toMatchObject({id: (sent.body as {event_id: string}).event_id, type, livemode: false, test: true});
  // A handler gets the resource the catalogue shows for that type, as the contract's Event says, not a stub.
  expect(delivered.data).toEqual(examples.find((example) => example.type === type)!.payload.data);
  const listed = (await call('GET /v1/events', {}, undefined, `type=${type}`)).body as {data: unknown[]};
  expect(listed.data).toEqual([delivered]);

  // Without a type: the endpoint's first subscribed event.
  const plain = await call('POST /v1/webhook-endpoints/{id}/test', {id}, undefined);
  expect(plain.body).toMatchObject({type: 'order.completed'});
  // Every type of the catalogue is accepted; any other is refused, naming the field.
  for (const each of eventTypes) {
    expect((await call('POST /v1/webhook-endpoints/{id}/test', {id}, {type: each})).status, each).toBe(200);
    const data = (JSON.parse(state.deliveries.at(-1)!.body) as {data: unknown}).data;
    expect(data, each).toEqual(examples.find((example) => example.type === each)!.payload.data);
  }
  const unknown = await call('POST /v1/webhook-endpoints/{id}/test', {id}, {type: 'esim.exploded'});
  expect(unknown.status).toBe(400);
  expect(unknown.body).toMatchObject({error: {code: 'validation_failed', param: 'type'}});
});
