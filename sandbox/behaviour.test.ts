/**
 * The sandbox enforces the behaviour model (src/constants/behaviour.ts) entry by entry: error codes, actions (events
 * and balance transactions), validity rules, widget caps. A new entry in the model without enforcement here fails.
 */
import {expect, test} from '@playwright/test';

import {BILLING, ENVIRONMENTS, LIFETIMES, LIMITS, SAMPLE_PACKAGE, SAMPLES, SANDBOX} from '../src/constants/api';
import {
  ACTIONS,
  CLOCK_STARTS,
  ERROR_CODES,
  IDEMPOTENCY,
  PAGINATION,
  REFUND_RULES,
  RETRY_POLICIES,
  SIMULATE_ACTIONS,
  needsValidityClock,
  USAGE_THRESHOLDS,
  VALIDITY_RULES,
  WIDGET_CAPS,
  answers,
  errorRule,
} from '../src/constants/behaviour';
import type {Action, ActionId, ErrorCode, ErrorRule} from '../src/constants/behaviour';
import {listOperations, operationFacts, operationScopes, resolveRef} from '../lib/contract/openapi';
import type {OpenApiDocument, OpenApiOperation, OpenApiParameter} from '../lib/contract/openapi';
import {exampleValidator} from '../lib/contract/validator';
import {webhookEventExamples} from '../lib/contract/webhooks';
import {PACKAGES} from './catalogue';
import type {Sandbox} from './server';
import {STARTING_BALANCE, signWebhook} from './state';
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
  newKey,
  parametersOf,
  tokenResponse,
} from './test-helpers';
import type {ErrorBody, Esim, Order, Result, Send, SimulateAction, Topup} from './test-helpers';

let sandbox: Sandbox;
let document: OpenApiDocument;
let validator: ReturnType<typeof exampleValidator>;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  // What is sent, not how it is retried, is under test; the credential-wide limit has its own test (sandbox.test.ts).
  ({sandbox, document} = await checkedSandbox({webhookTransport: async () => 204, requestsPerMinute: 100_000}));
  validator = exampleValidator(document);
});

test.afterAll(() => sandbox?.close());

test.afterEach(() => expectAnswersMatchContract(sandbox));

const operationsWith = (matches: (parameter: OpenApiParameter) => boolean) =>
  listOperations(document).filter(({operation}) => parametersOf(document, operation).some(matches));
const schemas = () => document.components.schemas as Record<string, {enum?: string[]; properties?: object}>;
const minor = (decimalText: string) => Math.round(Number(decimalText.replace(/,/g, '')) * 100);
const DAY = 86_400_000;

/** A fresh client: an account of its own. */
const account = () => newClient(sandbox, document);
type Account = Awaited<ReturnType<typeof account>>;
/** A fresh account with a webhook endpoint for every event. */
async function client() {
  const c = await account();
  const url = 'https://partner.example.org/behaviour';
  const endpoint = await c.post('/v1/webhook-endpoints', {url, enabled_events: schemas().EventType!.enum!}, 201);
  const secret = endpoint.secret as string;
  const {AcmeConnect} = (await import('../sdk/index.mjs')) as typeof import('../sdk/index');
  const {webhooks} = new AcmeConnect({clientId: 'x', clientSecret: 'y', environment: 'sandbox'});
  const asEvent = {method: 'WEBHOOK', path: 'event', target: 'request', pointer: '', abridged: false} as const;
  /** Event types delivered to the endpoint so far, oldest first, one per id; each a signed Event of the contract. */
  const events = async () => {
    await sandbox.state.settled();
    const ours = sandbox.deliveries.filter(({endpointId}) => endpointId === endpoint.id);
    for (const {url: to, headers, body, event} of ours) {
      const {id, type} = event;
      expect(to).toBe(url);
      const signature = signWebhook(secret, headers['X-Webhook-Timestamp']!, body);
      expect(headers['X-Webhook-Signature'], type).toBe(`v1=${signature}`);
      expect(webhooks.constructEvent(body, headers, secret), type).toMatchObject({id, type});
      expect(validator.validate(JSON.parse(body), asEvent), type).toEqual([]);
    }
    const sent = ours.map(({event}) => event);
    return sent.filter((event, index) => sent.findIndex(({id}) => id === event.id) === index).map(({type}) => type);
  };
  return {...c, endpoint, events};
}

/** `code` caused naturally: `key` the failing POST's Idempotency-Key, `again` it resent; `tokenEndpoint`: RFC 6749. */
type Caused = {result: Result; key?: string; again?: () => Promise<Result>; tokenEndpoint?: true};

const keyed = async (c: Account, apiPath: string, body: unknown, options: Send = {}) => {
  const key = newKey();
  const again = () => c.call('POST', apiPath, body, {...options, key});
  return {result: await again(), key, again};
};

/** Every code whose model trigger is not the X-Sandbox-Error header, caused as the model says. */
const NATURAL_TRIGGERS: Partial<Record<ErrorCode, (c: Account) => Promise<Caused>>> = {
  invalid_request: (c) => keyed(c, '/v1/orders', undefined, {raw: '{"package_id": '}),
  validation_failed: (c) => keyed(c, '/v1/orders', {package_id: SAMPLES.packageId, quantity: 0}),
  missing_token: (c) => keyed(c, '/v1/orders', {package_id: SAMPLES.packageId}, {token: null}),
  invalid_token: async (c) => ({result: await c.call('GET', '/v1/balance', undefined, {token: 'at_test_made_up'})}),
  insufficient_balance: async (c) => {
    await c.setBalance(0);
    const refused = await keyed(c, '/v1/orders', {package_id: SAMPLES.packageId});
    // Nothing charged, and the message names the balance.
    expect((await c.get('/v1/balance')).available).toMatchObject({amount: 0});
    expect((refused.result.body.error as ErrorBody).message).toContain((0).toFixed(2));
    return refused;
  },
  insufficient_scope: async (c) => {
    // The model's trigger names the token's scope and the call to make with it.
    const trigger = errorRule('insufficient_scope').sandboxTrigger!;
    const scope = /`scope=([^`]+)`/.exec(trigger)?.[1];
    const [method, apiPath] = /`(GET|POST|PATCH|DELETE) (\/v1\/[^`]+)`/.exec(trigger)?.slice(1) ?? [];
    expect([scope, method, apiPath], trigger).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    const token = await accessToken(sandbox.origin, c.credential, scope);
    return {result: await c.call(method!, apiPath!, undefined, {token})};
  },
  environment_mismatch: async () => {
    const {clientIdPrefix, clientSecretPrefix} = ENVIRONMENTS.live;
    const live = {clientId: `${clientIdPrefix}behaviour`, clientSecret: `${clientSecretPrefix}behaviour`, scopes: []};
    return {result: await tokenResponse(sandbox.origin, credentialsForm(live)), tokenEndpoint: true};
  },
  package_not_found: (c) => keyed(c, '/v1/orders', {package_id: 'xx-1gb-1d'}),
  order_not_found: async (c) => ({result: await c.call('GET', '/v1/orders/ord_unknown')}),
  esim_not_found: async (c) => ({result: await c.call('GET', `/v1/esims/${SAMPLES.iccid}`)}),
  resource_not_found: async (c) => ({result: await c.call('GET', '/v1/nothing-here')}),
  idempotency_key_reused: async (c) => {
    const [key, body] = [newKey(), {package_id: SAMPLES.packageId}];
    const first = c.ok(await c.call('POST', '/v1/orders', body, {key}), 201);
    const result = await c.call('POST', '/v1/orders', {...body, quantity: 2}, {key});
    // The 409 replaced nothing: the key still answers the first order.
    expect((await c.call('POST', '/v1/orders', body, {key})).body.id).toBe(first.id);
    return {result};
  },
  topup_pending: async (c) => keyed(c, '/v1/refunds', {iccid: await pendingTopupEsim(c)}),
  package_unavailable: (c) => keyed(c, '/v1/orders', {package_id: SANDBOX.unavailablePackageId}),
  topup_not_allowed: async (c) => {
    const iccid = await activeEsim(c);
    await c.simulate(iccid, 'expire');
    return keyed(c, `/v1/esims/${iccid}/topups`, {package_id: SAMPLES.topupPackageId});
  },
  esim_not_refundable: async (c) => keyed(c, '/v1/refunds', {iccid: await installedEsim(c)}),
  order_not_cancellable: async (c) => {
    const created = await c.order();
    await c.simulate(created.esims[0]!.iccid, 'installed');
    return keyed(c, `/v1/orders/${created.id}/cancel`, undefined);
  },
  invalid_state: async (c) => keyed(c, `/v1/esims/${await c.iccidOf()}/resume`, undefined),
  provisioning_failed: (c) => keyed(c, '/v1/orders', {package_id: SANDBOX.failingPackageId}),
};

const expectInvalid = (result: Result, param: string | RegExp, what?: string) =>
  expectError(result, 'validation_failed', param, what);

test.describe('errors: every code of the model', () => {
  test(`each answers its status and retry policy through ${SANDBOX.errorHeader} without running the operation, so it is not stored, and the same key then succeeds; a code the operation never answers is refused`, async () => {
    const c = await account();
    const orders = document.paths['/v1/orders']!.post as OpenApiOperation;
    const ordering = operationFacts(document, 'POST', '/v1/orders', orders);
    const forcing = (code: string) => ({headers: {[SANDBOX.errorHeader]: code}});
    for (const rule of ERROR_CODES) {
      const key = newKey();
      const body = {package_id: SAMPLES.packageId};
      const forced = await c.call('POST', '/v1/orders', body, {key, ...forcing(rule.code)});
      if (!answers(rule, ordering)) {
        const refused = expectInvalid(forced, SANDBOX.errorHeader, rule.code);
        expect(refused.message, rule.code).toContain(`POST /v1/orders never answers ${rule.code}`);
        continue;
      }
      expectError(forced, rule.code);
      if (rule.status === 429 || rule.status === 503) expect(forced.headers.get('retry-after'), rule.code).toBe('1');
      expect(sandbox.state.storedUnderKey(c.credential.clientId, key), rule.code).toBe(false);
      const again = await c.call('POST', '/v1/orders', body, {key});
      expect(again.status, rule.code).toBe(201);
      expect(again.headers.get('idempotent-replayed'), rule.code).toBeNull();
    }
    // Another operation answers a code ordering never does.
    const esimOnly = await c.call('GET', `/v1/esims/${await c.iccidOf()}`, undefined, forcing('esim_not_found'));
    expectError(esimOnly, 'esim_not_found');
    const unknown = await c.call('POST', '/v1/orders', {package_id: SAMPLES.packageId}, forcing('no_such_code'));
    expectInvalid(unknown, SANDBOX.errorHeader);
  });

  // Each operation the model names for a not-found code (integrators write a branch for it) gets a request with that
  // one id unknown, in its path or its body (a list of ids holds only the unknown one).
  const UNKNOWN_IDS: Partial<Record<ErrorCode, {fields: string[]; unknown: string}>> = {
    package_not_found: {fields: ['package_id', 'package_ids'], unknown: 'xx-1gb-1d'},
    order_not_found: {fields: ['order_id'], unknown: 'ord_UNKNOWN01'},
    esim_not_found: {fields: ['iccid'], unknown: SAMPLES.iccid},
    resource_not_found: {fields: ['id'], unknown: 'we_UNKNOWN01'},
  };
  test('every operation the model names for a not-found code answers it when that one id is unknown', async () => {
    const notFound = ERROR_CODES.filter(({status, answeredBy}) => status === 404 && typeof answeredBy !== 'string');
    const without = notFound.map(({code}) => code).filter((code) => !(code in UNKNOWN_IDS));
    expect(without, 'an unknown id for every not-found code of the model').toEqual([]);
    const c = await account();
    const ownIccid = await c.iccidOf();
    type Properties = {properties?: Record<string, {type?: string}>};
    for (const [code, {fields, unknown}] of Object.entries(UNKNOWN_IDS)) {
      // Every other id is one the client has (its own eSIM) or the contract's example.
      const idFor = (name: string, example: unknown) =>
        fields.includes(name) ? unknown : name === 'iccid' ? ownIccid : example;
      const named = errorRule(code).answeredBy as readonly string[];
      for (const {method, path: apiPath, operation} of listOperations(document)) {
        if (!named.includes(`${method} ${apiPath}`)) continue;
        const example = exampleBody(operation) as Record<string, unknown> | undefined;
        const body = example && {...example};
        const {requestBody} = operation as {requestBody?: {content: Record<string, {schema: object}>}};
        const schema = body && requestBody?.content['application/json']?.schema;
        const {properties} = schema ? resolveRef<Properties>(document, schema) : {properties: {}};
        for (const [name, {type}] of Object.entries(properties ?? {}))
          if (fields.includes(name) || (name === 'iccid' && name in body!))
            body![name] = type === 'array' ? [idFor(name, undefined)] : idFor(name, body![name]);
        const answer = await c.call(method, concretePathOf(document, apiPath, operation, idFor), body, {key: newKey()});
        expectError(answer, code, undefined, `${method} ${apiPath} with ${fields.join(' / ')} unknown`);
      }
    }
  });

  test('the operations the model says answer each code exist, document its status, and each error status they document has a code', () => {
    const problems: string[] = [];
    const operations = listOperations(document).map(({method, path}) => `${method} ${path}`);
    for (const rule of ERROR_CODES as readonly ErrorRule[])
      for (const named of typeof rule.answeredBy === 'string' ? [] : rule.answeredBy)
        if (!operations.includes(named)) problems.push(`${rule.code}: no operation ${named} in the contract`);
    let documented = 0;
    for (const {method, path: apiPath, operation} of listOperations(document)) {
      const key = `${method} ${apiPath}`;
      const facts = operationFacts(document, method, apiPath, operation);
      const responses = (operation.responses ?? {}) as Record<string, unknown>;
      for (const rule of ERROR_CODES.filter((candidate) => answers(candidate, facts)))
        if (!responses[String(rule.status)])
          problems.push(`${key} answers ${rule.code}, but documents no ${rule.status}`);
      for (const [status, raw] of Object.entries(responses)) {
        const schema = resolveRef<{content?: Record<string, {schema?: {$ref?: string}}>}>(document, raw as never)
          .content?.['application/json']?.schema?.$ref;
        if (Number(status) < 400 || !schema?.endsWith('/ErrorEnvelope')) continue;
        documented++;
        if (!ERROR_CODES.some((rule) => String(rule.status) === status && answers(rule, facts)))
          problems.push(`${key} documents ${status}, but the model gives it no code of that status`);
      }
    }
    expect(documented, 'error statuses documented with the error envelope').toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  test('each code the model says the sandbox causes naturally is caused that way, with the model’s status and retry, and stored under its key as the model says: every answer but a 401, 403, 429, 5xx or the key’s own 409s', async () => {
    const expectedUnstored = new Set(['idempotency_key_reused', 'idempotency_in_progress']);
    for (const rule of ERROR_CODES) {
      const unstored = [401, 403, 429].includes(rule.status) || rule.status >= 500 || expectedUnstored.has(rule.code);
      expect(IDEMPOTENCY.isStored(rule.status, rule.code), rule.code).toBe(!unstored);
    }
    for (const [status, code] of [[200], [201], [402, 'insufficient_balance'], [422, 'provisioning_failed']] as const)
      expect(IDEMPOTENCY.isStored(status, code), `${status} ${code}`).toBe(true);
    expect(IDEMPOTENCY.storedSentence).toContain('with a new key');
    expect(RETRY_POLICIES.after_fix.label).toContain('new key');
    const natural = ERROR_CODES.filter(({sandboxTrigger: how}) => how && !how.includes(SANDBOX.errorHeader));
    const undriven = natural.map(({code}) => code).filter((code) => !NATURAL_TRIGGERS[code]);
    expect(undriven, 'a driver for every natural trigger of the model').toEqual([]);
    for (const rule of natural) {
      const c = await account();
      const {result, key, again, tokenEndpoint} = await NATURAL_TRIGGERS[rule.code]!(c);
      if (tokenEndpoint) expectOAuthError(result, rule.status, rule.code);
      else expectError(result, rule.code);
      if (key) {
        const stored = IDEMPOTENCY.isStored(rule.status, rule.code);
        expect(sandbox.state.storedUnderKey(c.credential.clientId, key), rule.code).toBe(stored);
        // Stored: the same request with the same key is the first answer, as it was sent.
        if (stored && again) expectReplay(await again(), result, rule.code);
      }
    }
  });

  test(`keys are remembered per account (${IDEMPOTENCY.rememberedFor}); each local sandbox credential is an account of its own`, async () => {
    const [first, second] = [await account(), await account()];
    const key = newKey();
    const body = {package_id: SAMPLES.packageId};
    const placed = await first.call('POST', '/v1/orders', body, {key});
    expect(placed.status).toBe(201);
    expectReplay(await first.call('POST', '/v1/orders', body, {key}), placed);
    // Another account: the same key is a new request there.
    const elsewhere = await second.call('POST', '/v1/orders', body, {key});
    expect(second.ok(elsewhere, 201).id).not.toBe(placed.body.id);
    expect(elsewhere.headers.get(IDEMPOTENCY.replayHeader)).toBeNull();
  });

  test('the same request is the same method, path and JSON value: reordered keys and spacing replay; another value, a default sent or another endpoint is idempotency_key_reused', async () => {
    const c = await account();
    const key = newKey();
    const [packageId, topupId] = [JSON.stringify(SAMPLES.packageId), SAMPLES.topupPackageId];
    const first = await c.call('POST', '/v1/orders', undefined, {key, raw: `{"quantity":1,"package_id":${packageId}}`});
    expect(first.status).toBe(201);
    // A client that rebuilds its JSON for the retry: other key order, other spacing, the same value.
    const raw = `{\n  "package_id": ${packageId},\n  "quantity": 1\n}`;
    expectReplay(await c.call('POST', '/v1/orders', undefined, {key, raw}), first);
    for (const other of [
      c.call('POST', '/v1/orders', {package_id: SAMPLES.packageId, quantity: 2}, {key}),
      // Leaving out `quantity` is not the same as sending its default.
      c.call('POST', '/v1/orders', {package_id: SAMPLES.packageId}, {key}),
      c.call('POST', `/v1/esims/${(first.body as Order).esims[0]!.iccid}/topups`, {package_id: topupId}, {key}),
    ])
      expectError(await other, 'idempotency_key_reused');
    expect(await c.list('/v1/orders')).toHaveLength(1);
  });

  test('a replay is the first answer, not the order now: GET /v1/orders/{order_id} reads the current state', async () => {
    const c = await account();
    const {result: first, again} = await keyed(c, '/v1/orders', {package_id: SANDBOX.slowPackageId});
    expect(c.ok(first, 201)).toMatchObject({status: 'processing', esims: []});
    expect(await c.get(`/v1/orders/${String(first.body.id)}`)).toMatchObject({status: 'completed'});
    expectReplay(await again(), first);
    expect(IDEMPOTENCY.replaySentence).toContain('GET /v1/orders/{order_id}');
  });
});

/** `act` performs the action on `esims` eSIMs (`×` events, per-eSIM transactions), and the actions `also` with it. */
type Driver = (c: Account) => Promise<{act: () => Promise<unknown>; esims?: number; also?: ActionId[]}>;
type OnEsim = (c: Account, iccid: string) => Promise<unknown>;

const esimThat = (step: OnEsim) => async (c: Account) => {
  const iccid = await c.iccidOf();
  await step(c, iccid);
  return iccid;
};
const fresh = (c: Account) => c.iccidOf();
const activeEsim = esimThat((c, iccid) => c.simulate(iccid, 'activated'));
const installedEsim = esimThat((c, iccid) => c.simulate(iccid, 'installed'));
const pendingTopupEsim = esimThat((c, iccid) => c.topup(iccid, SANDBOX.pendingTopupPackageId));
const suspend: OnEsim = (c, iccid) => c.post(`/v1/esims/${iccid}/suspend`);
const answering = (act: () => Promise<unknown>, expected: Record<string, unknown> | unknown[]) => ({
  act: async () => expect(await act()).toMatchObject(expected),
});
/** `act` on the eSIM `prepare` made; its answer matches `expected`. */
const on =
  (prepare: (c: Account) => Promise<string>, act: OnEsim, expected: Record<string, unknown>): Driver =>
  async (c) => {
    const iccid = await prepare(c);
    return answering(() => act(c, iccid), expected);
  };
const simulated = (action: SimulateAction, expected: Partial<Esim>, prepare = fresh) =>
  on(prepare, (c, iccid) => c.simulate(iccid, action), expected);
const toppedUp = (packageId: string, expected: Partial<Topup>) =>
  on(activeEsim, (c, iccid) => c.topup(iccid, packageId), expected);
/** A pending top-up of `packageId` on an active eSIM, settled by listing the eSIM's top-ups. */
const settledTopup =
  (packageId: string, expected: Record<string, unknown>): Driver =>
  async (c) => {
    const iccid = await activeEsim(c);
    const topup = await c.topup(iccid, packageId);
    expect(topup).toMatchObject({status: 'pending'});
    return answering(() => c.list(`/v1/esims/${iccid}/topups`), [{id: topup.id, ...expected}]);
  };
const DRIVERS: Record<ActionId, Driver> = {
  'order.create': async (c) => answering(() => c.order(), {status: 'completed'}),
  'order.processing': async (c) => answering(() => c.order(SANDBOX.slowPackageId), {status: 'processing', esims: []}),
  'order.complete': async (c) => {
    const created = await c.order(SANDBOX.slowPackageId);
    // Its next read, in a list as well as on its own (the replay test reads it on its own).
    const read = async () => (await c.list<Order>('/v1/orders')).find(({id}) => id === created.id);
    return answering(read, {status: 'completed', esims: [{status: 'ready'}]});
  },
  'order.fail': async (c) => {
    const created = await c.order(SANDBOX.slowFailingPackageId);
    return answering(() => c.get(`/v1/orders/${created.id}`), {status: 'failed', esims: []});
  },
  'order.reject': async (c) => ({
    act: async () => {
      expectError(await c.call('POST', '/v1/orders', {package_id: SANDBOX.failingPackageId}), 'provisioning_failed');
      expect(await c.list('/v1/orders')).toEqual([]);
      expect((await c.get('/v1/balance')).available, 'nothing charged').toMatchObject({amount: STARTING_BALANCE});
    },
  }),
  'order.cancel': async (c) => {
    const {id, total} = await c.order(SAMPLES.packageId, 2);
    // What each refund returns: the refunds tests.
    const cancelled = {status: 'cancelled', cancelled_at: expect.any(String), refunded_total: {amount: total.amount}};
    return {esims: 2, ...answering(() => c.post(`/v1/orders/${id}/cancel`), cancelled)};
  },
  'refund.create': async (c) => {
    const created = await c.order();
    const iccid = created.esims[0]!.iccid;
    // REFUND_RULES: the applied top-up on the never-installed eSIM is refunded with it only if the model says so.
    const topupPrice = (await c.topup(iccid, SAMPLES.topupPackageId)).price.amount;
    const amount = created.unit_price.amount + (REFUND_RULES.includesTopups ? topupPrice : 0);
    return answering(() => c.post('/v1/refunds', {iccid}, 201), {amount: {amount}});
  },
  'esim.install': simulated('installed', {status: 'installed'}),
  'esim.activate': simulated('activated', {status: 'active'}, installedEsim),
  'esim.activate_ready': simulated('activated', {status: 'active', profile_state: 'enabled'}),
  'esim.use': async (c) => {
    const iccid = await activeEsim(c);
    // Past the first threshold only.
    const mb = Math.ceil((SAMPLE_PACKAGE.dataMb * USAGE_THRESHOLDS[0]) / 100);
    return {act: () => c.simulate(iccid, 'consume_data', mb)};
  },
  'esim.delete_profile': simulated('profile_deleted', {status: 'installed', profile_state: 'deleted'}, installedEsim),
  'esim.suspend': on(fresh, suspend, {status: 'suspended'}),
  'esim.resume': on(esimThat(suspend), (c, iccid) => c.post(`/v1/esims/${iccid}/resume`), {status: 'ready'}),
  'esim.expiring_soon': async (c) => {
    const iccid = await activeEsim(c);
    const ahead = LIFETIMES.expiringSoonHours * 3_600_000;
    return {
      act: async () => {
        const before = Math.floor(Date.now() / 1000) * 1000;
        const expires = Date.parse((await c.simulate(iccid, 'expiring_soon')).expires_at!);
        expect(expires).toBeGreaterThanOrEqual(before + ahead);
        expect(expires).toBeLessThanOrEqual(Date.now() + ahead);
      },
    };
  },
  'esim.expire': simulated('expire', {status: 'expired'}, activeEsim),
  'topup.create': toppedUp(SAMPLES.topupPackageId, {status: 'applied'}),
  'topup.pending': toppedUp(SANDBOX.pendingTopupPackageId, {status: 'pending', applied_at: null}),
  'topup.apply': settledTopup(SANDBOX.pendingTopupPackageId, {status: 'applied', applied_at: expect.any(String)}),
  'topup.fail_pending': settledTopup(SANDBOX.pendingFailingTopupPackageId, {status: 'failed', applied_at: null}),
  'topup.fail': toppedUp(SANDBOX.failingTopupPackageId, {status: 'failed', applied_at: null}),
  'balance.low': async (c) => {
    // Just above the threshold, so the next order's debit crosses it.
    await c.setBalance(minor(BILLING.lowBalanceThresholdDefault) + 1);
    return {also: ['order.create'], act: () => c.order()};
  },
  'balance.deposit': async (c) => ({act: () => c.setBalance(STARTING_BALANCE + 1000)}),
  'balance.adjust': async (c) => ({act: () => c.setBalance(STARTING_BALANCE - 1000)}),
};

test.describe('actions: each sends the model’s events, each a signed Event of the contract, and makes its balance transactions', () => {
  for (const action of ACTIONS as readonly Action[]) {
    test(action.id, async () => {
      const driver = (DRIVERS as Partial<Record<string, Driver>>)[action.id];
      expect(driver, `a driver for the model's action ${action.id} (sandbox/behaviour.test.ts)`).toBeDefined();
      const c = await client();
      const {act, esims = 1, also = []} = await driver!(c);
      const eventsBefore = (await c.events()).length;
      const transactionsBefore = (await c.transactions()).length;
      await act();
      const events = (await c.events()).slice(eventsBefore);
      const made = (await c.transactions()).slice(transactionsBefore);
      const balance = made.map((t) => `${t.type} ${t.amount.amount < 0 ? 'debit' : 'credit'}`);
      // What the model says, for `esims` eSIMs: one action in its order; with others, as a set of the same size.
      const all: Action[] = [action, ...also.map((id) => ACTIONS.find((candidate) => candidate.id === id)!)];
      const times = (value: string, perEsim?: boolean) => Array<string>(perEsim ? esims : 1).fill(value);
      const order = (list: string[]) => (also.length > 0 ? [...list].sort() : list);
      const modelEvents = all.flatMap((a) => a.events.flatMap((e) => times(e.replace(/ ×$/, ''), e.endsWith(' ×'))));
      const modelBalance = all.flatMap((a) => a.balance.flatMap((m) => times(`${m.type} ${m.direction}`, m.perEsim)));
      expect(order(events), 'webhook events').toEqual(order(modelEvents));
      expect(order(balance), 'balance transactions').toEqual(order(modelBalance));
      expect(made.every((t) => t.amount.amount !== 0)).toBe(true);
    });
  }
});

test('balance.low is sent once as a spend crosses the threshold, and again only after the balance was above it', async () => {
  const c = await client();
  const lowEvents = async () => (await c.events()).filter((type) => type === 'balance.low').length;
  await c.setBalance(minor(BILLING.lowBalanceThresholdDefault) + 1);
  await c.order();
  await c.order();
  expect(await lowEvents(), 'two spends below the threshold').toBe(1);
  await c.setBalance(minor(BILLING.lowBalanceThresholdDefault) + 1);
  await c.order();
  expect(await lowEvents(), 'after the balance was above it again').toBe(2);
});

test('an event carries its resource as the API answers it once the change is made: installing, activating and expiring carry the eSIM exactly as the simulate answer does; using up the data, each esim.usage_threshold carries it as that consume_data answered it, depleted at 100 %', async () => {
  const c = await account();
  type EsimEvent = {data: {object: Esim; threshold: number}};
  const eventsOf = (type: string) => c.list<EsimEvent>(`/v1/events?type=${type}&limit=${LIMITS.pageSizeMax}`);
  // The QR code's URL is signed when it is read, so it differs from one read to the next.
  const signedQr = {activation: expect.objectContaining({qr_code_url: expect.stringContaining('qr.png?sig=')})};
  /** Simulates `action`; the event `type` it sends carries the eSIM as the answer does. */
  const carried = async (iccid: string, action: SimulateAction, type: string) => {
    const answered = await c.simulate(iccid, action);
    const event = (await eventsOf(type)).find((candidate) => candidate.data.object.iccid === iccid);
    expect(event?.data.object, type).toMatchObject({...answered, ...signedQr});
    expect(answered).toMatchObject(signedQr);
  };
  const iccid = await c.iccidOf();
  await carried(iccid, 'installed', 'esim.installed');
  await carried(iccid, 'activated', 'esim.activated');
  await carried(iccid, 'expire', 'esim.expired');

  const usedUp = await c.iccidOf();
  await carried(usedUp, 'activated', 'esim.activated');
  const halfUsedAnswer = await c.simulate(usedUp, 'consume_data', SAMPLE_PACKAGE.dataMb / 2);
  const usedUpAnswer = await c.simulate(usedUp, 'consume_data', SAMPLE_PACKAGE.dataMb);
  expect([halfUsedAnswer.status, usedUpAnswer.status]).toEqual(['active', 'depleted']);
  const ofEsim = (await eventsOf('esim.usage_threshold')).filter((event) => event.data.object.iccid === usedUp);
  expect(ofEsim.reverse().map((event) => [event.data.threshold, event.data.object.status])).toEqual([
    [USAGE_THRESHOLDS[0], halfUsedAnswer.status],
    ...USAGE_THRESHOLDS.slice(1).map((threshold) => [threshold, usedUpAnswer.status]),
  ]);
  await carried(usedUp, 'expire', 'esim.expired');
});

test.describe('refunds', () => {
  type Refund = {id: string; amount: {amount: number}};
  type Totals = {status: string; total: {amount: number}; refunded_total: {amount: number}};

  test('refunding a never-installed eSIM returns its unit price, and cancelling an order refunds each eSIM as the refund rule says; applied top-ups are not refunded (billing: they are non-refundable); refunded_total is then the total, never more', async () => {
    // domain.md, Billing: "Installed/used eSIMs and applied top-ups are non-refundable".
    expect(REFUND_RULES.includesTopups).toBe(false);
    const c = await account();
    const balanceNow = async () => ((await c.get('/v1/balance')).available as {amount: number}).amount;
    const opening = await balanceNow();
    const created = await c.order(SAMPLES.packageId, 2);
    const [iccid, other] = created.esims.map((esim) => esim.iccid) as [string, string];
    const applied = await c.topup(iccid, SAMPLES.topupPackageId);
    expect((await c.topup(iccid, SANDBOX.failingTopupPackageId)).status).toBe('failed');
    const before = (await c.transactions()).length;

    const refund = (await c.post('/v1/refunds', {iccid}, 201)) as Refund;
    expect(refund.amount.amount).toBe(created.unit_price.amount);
    const made = (await c.transactions()).slice(before).map((t) => [t.type, t.amount.amount, t.source_id]);
    expect(made).toEqual([['refund', created.unit_price.amount, refund.id]]);
    // What the applied top-up cost stays spent; the failed one came back when it failed.
    await c.post('/v1/refunds', {iccid: other}, 201);
    expect(await balanceNow()).toBe(opening - applied.price.amount);
    const order = (await c.get(`/v1/orders/${created.id}`)) as Totals;
    expect(order).toMatchObject({status: 'cancelled', refunded_total: {amount: order.total.amount}});

    // The top-up applied to one eSIM is not refunded with it (REFUND_RULES.includesTopups, above).
    const toCancel = await c.order(SAMPLES.packageId, 2);
    await c.topup(toCancel.esims[0]!.iccid, SAMPLES.topupPackageId);
    const beforeCancel = (await c.transactions()).length;
    const cancelled = (await c.post(`/v1/orders/${toCancel.id}/cancel`)) as Totals;
    expect(cancelled.refunded_total.amount).toBe(toCancel.total.amount);
    const unit = toCancel.unit_price.amount;
    expect((await c.transactions()).slice(beforeCancel).map((t) => t.amount.amount)).toEqual([unit, unit]);
  });

  test(`while a top-up is pending, refund and cancel answer ${REFUND_RULES.refusedWhileTopupPending} and change nothing; once it settles the same keys replay the ${REFUND_RULES.refusedWhileTopupPending}, and new keys go through, refunding it once`, async () => {
    const c = await account();
    const created = await c.order(SAMPLES.packageId, 2);
    const [first, second] = created.esims.map(({iccid}) => iccid) as [string, string];
    const pending = await c.topup(second, SANDBOX.pendingTopupPackageId);
    expect(pending.status).toBe('pending');
    const before = (await c.transactions()).length;
    const cancel = await keyed(c, `/v1/orders/${created.id}/cancel`, undefined);
    const refund = await keyed(c, '/v1/refunds', {iccid: second});
    for (const {result} of [cancel, refund]) expectError(result, REFUND_RULES.refusedWhileTopupPending);
    // The other eSIM has no pending top-up of its own: it can still be refunded alone.
    await c.post('/v1/refunds', {iccid: first}, 201);
    expect((await c.transactions()).slice(before).map((t) => t.type)).toEqual(['refund']);
    expect((await c.esim(second)).status).toBe('ready');

    expect(await c.list(`/v1/esims/${second}/topups`)).toMatchObject([{id: pending.id, status: 'applied'}]);
    // The refusals are stored under their keys: the same keys replay them.
    expectReplay(await cancel.again(), cancel.result);
    expectReplay(await refund.again(), refund.result);
    const {amount} = (await c.post('/v1/refunds', {iccid: second}, 201)) as Refund;
    expect(amount.amount).toBe(created.unit_price.amount + (REFUND_RULES.includesTopups ? pending.price.amount : 0));
    // Settled: its price is neither credited back on its own nor refunded with the eSIM.
    const made = (await c.transactions()).slice(before);
    expect(made.filter((t) => t.source_id === pending.id)).toEqual([]);
    expect(made.map((t) => t.type)).toEqual(['refund', 'refund']);
  });

  test('the top-ups list: newest first, whatever their status, filtered by status, a page at a time', async () => {
    const c = await account();
    const iccid = await activeEsim(c);
    const made: string[] = [];
    for (const packageId of [SAMPLES.topupPackageId, SANDBOX.failingTopupPackageId, SANDBOX.pendingTopupPackageId])
      made.push((await c.topup(iccid, packageId)).id);
    const first = await c.get(`/v1/esims/${iccid}/topups?limit=2`);
    expect((first.data as {id: string}[]).map((t) => t.id)).toEqual([made[2], made[1]]);
    const rest = await c.get(`/v1/esims/${iccid}/topups?limit=2&cursor=${String(first.next_cursor)}`);
    expect(rest).toMatchObject({data: [{id: made[0]}], has_more: false});
    expect(await c.ids(`/v1/esims/${iccid}/topups?status=failed`)).toEqual([made[1]]);
  });
});

test.describe('validity', () => {
  const topupPackage = PACKAGES.find((pkg) => pkg.id === SAMPLES.topupPackageId)!;
  const samplePackage = PACKAGES.find((pkg) => pkg.id === SAMPLES.packageId)!;
  const onInstall = PACKAGES.find((pkg) => pkg.activation_policy === 'on_install')!;
  // The model's rule (VALIDITY_RULES.topupSentence): a top-up's days run from when it is applied, or
  // from when the clock starts if it has not; expires_at takes the later end and never moves earlier.
  const later = (...timestamps: number[]) => new Date(Math.max(...timestamps)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const end = (appliedAt: string | null, days: number) => Date.parse(appliedAt!) + days * DAY;

  test('a top-up adds its data, and its days run from when it is applied: a shorter one leaves expires_at, one that runs longer than the validity left moves expires_at to its own end', async () => {
    expect(topupPackage.validity_days).toBeLessThan(samplePackage.validity_days);
    const c = await account();
    const iccid = await activeEsim(c);
    const before = await c.esim(iccid);
    const topup = await c.topup(iccid, topupPackage.id);
    const after = await c.esim(iccid);
    expect(after.expires_at).toBe(
      later(Date.parse(before.expires_at!), end(topup.applied_at, topupPackage.validity_days)),
    );
    expect(after.expires_at, 'the shorter top-up ends before the validity left').toBe(before.expires_at);
    expect((await c.get(`/v1/esims/${iccid}/usage`)).data_total_mb).toBe(SAMPLE_PACKAGE.dataMb + topupPackage.data_mb!);

    const short = await c.iccidOf(topupPackage.id);
    await c.simulate(short, 'activated');
    const longer = await c.topup(short, samplePackage.id);
    expect((await c.esim(short)).expires_at).toBe(later(end(longer.applied_at, samplePackage.validity_days)));
  });

  test('the clock starts at install for on_install packages, at first attach for first_use ones; a top-up before it starts runs from when it starts, alongside the package’s own days; an action that needs the clock takes an installed eSIM only once it runs', async () => {
    const c = await account();
    const runs = (esim: Esim) => Date.parse(esim.expires_at!) - Date.parse(esim.activated_at!);
    expect(onInstall, 'an on_install package in the sandbox catalogue').toBeDefined();
    const early = await c.iccidOf(onInstall.id);
    const installed = await c.simulate(early, 'installed');
    expect(installed.expires_at).not.toBeNull();
    // Activation does not restart it.
    expect((await c.simulate(early, 'activated')).expires_at).toBe(installed.expires_at);

    const late = await c.iccidOf();
    expect((await c.simulate(late, 'installed')).expires_at).toBeNull();
    expect(runs(await c.simulate(late, 'activated'))).toBe(SAMPLE_PACKAGE.validityDays * DAY);

    const toppedUpFirst = await c.iccidOf();
    await c.topup(toppedUpFirst, topupPackage.id);
    expect((await c.esim(toppedUpFirst)).expires_at).toBeNull();
    const longest = Math.max(SAMPLE_PACKAGE.validityDays, topupPackage.validity_days);
    expect(runs(await c.simulate(toppedUpFirst, 'activated'))).toBe(longest * DAY);

    const clockActions = (Object.keys(SIMULATE_ACTIONS) as SimulateAction[]).filter(needsValidityClock);
    expect(clockActions.length, 'actions that need the clock').toBeGreaterThan(0);
    for (const action of clockActions) {
      const noClock = await installedEsim(c);
      const refused = expectError(await c.trySimulate(noClock, action), 'invalid_state', undefined, action);
      expect(refused.message, action).toContain('no validity clock');
      const running = await c.iccidOf(onInstall.id);
      await c.simulate(running, 'installed');
      expect(await c.simulate(running, action), action).toMatchObject({status: 'installed'});
    }
  });

  test('a suspended eSIM takes a simulation only if the status it had before does: one never installed cannot expire; suspension does not pause the clock: expires_at stays, and a suspended eSIM expires', async () => {
    expect(VALIDITY_RULES.readyExpires).toBe(false);
    const c = await account();
    for (const [action, rule] of Object.entries(SIMULATE_ACTIONS)) {
      const from: readonly string[] = rule.from;
      if (!from.includes('suspended')) continue;
      const iccid = await esimThat(suspend)(c);
      const answer = await c.trySimulate(iccid, action);
      if (from.includes('ready')) expect(answer.status, action).toBe(200);
      else {
        // The message says why: the status it had before, and what the action needs, never "needs … suspended".
        const {message} = expectError(answer, 'invalid_state', undefined, action);
        expect(message, action).toContain('was ready');
        expect(message, action).not.toMatch(/needs [^.]*\bsuspended\b(?! from)/);
        for (const status of from.filter((candidate) => candidate !== 'suspended'))
          expect(message, action).toContain(status);
      }
      expect((await c.esim(iccid)).status, action).toBe('suspended');
    }

    const active = await activeEsim(c);
    const {expires_at} = await c.esim(active);
    expect(await c.post(`/v1/esims/${active}/suspend`)).toMatchObject({status: 'suspended', expires_at});
    expect(await c.simulate(active, 'expiring_soon')).toMatchObject({status: 'suspended'});
    expect(await c.simulate(active, 'expire')).toMatchObject({status: 'expired'});
    expectError(await c.call('POST', `/v1/esims/${active}/resume`), 'invalid_state');
  });
});

test.describe('widget caps', () => {
  const session = (c: Account, body: Record<string, unknown>) =>
    c.call('POST', '/v1/widget-sessions', {mode: 'store', allowed_origins: ['https://shop.example.org'], ...body});
  /** What a new session has left: its remaining_orders and remaining_topups. */
  const remaining = async (c: Account, body: Record<string, unknown>) => c.ok(await session(c, body), 201);
  const ordered = async (c: Account, reference: string, packageId: string = SAMPLES.packageId) =>
    c.order(packageId, 1, {customer_reference: reference});

  test('an activate or manage session for a refunded or expired eSIM is 422 invalid_state, a store session names no eSIM; allowed_origins takes origins only: a page URL or a trailing slash is refused, naming the field', async () => {
    const c = await account();
    const refunded = await c.iccidOf();
    await c.post('/v1/refunds', {iccid: refunded}, 201);
    const expired = await activeEsim(c);
    await c.simulate(expired, 'expire');
    for (const mode of ['activate', 'manage']) {
      for (const iccid of [refunded, expired])
        expectError(await session(c, {mode, iccid, customer_reference: 'gone-1'}), 'invalid_state');
      await remaining(c, {mode, iccid: await c.iccidOf(), customer_reference: 'gone-1'});
    }

    await remaining(c, {customer_reference: 'origins-1', allowed_origins: ['http://localhost:3000']});
    for (const notAnOrigin of ['https://shop.example.org/checkout?x=1', 'https://shop.example.org/', '*']) {
      const refused = await session(c, {customer_reference: 'origins-1', allowed_origins: [notAnOrigin]});
      expectInvalid(refused, /^allowed_origins/, notAnOrigin);
    }
  });

  test('caps count the orders for the customer_reference and the top-ups of the eSIM, across sessions and the API; only the widget enforces them: the API accepts an order and a top-up past them', async () => {
    const c = await account();
    const reference = 'traveller-42';
    const capped = {customer_reference: reference, max_orders: 2};
    expect(await remaining(c, capped)).toMatchObject({remaining_orders: 2});
    const iccid = (await ordered(c, reference)).esims[0]!.iccid;
    // A new session (the traveller reloaded) gets what remains.
    expect(await remaining(c, capped)).toMatchObject({remaining_orders: 1});
    // Top-ups count per eSIM, whatever reference a manage session names: another booking's cannot buy them again.
    const manage = (esim: string, customer_reference: string) =>
      remaining(c, {mode: 'manage', iccid: esim, customer_reference, max_topups: 1});
    expect(await manage(iccid, reference)).toMatchObject({remaining_topups: 1});
    await c.topup(iccid, SAMPLES.topupPackageId);
    expect(await manage(iccid, reference)).toMatchObject({remaining_topups: 0});
    expect(await manage(iccid, 'another-booking')).toMatchObject({remaining_topups: 0});
    const unreferencedOrder = await c.iccidOf();
    await c.topup(unreferencedOrder, SAMPLES.topupPackageId);
    expect(await manage(unreferencedOrder, 'x')).toMatchObject({remaining_topups: 0});
    // The defaults, from the model: max_orders, and no top-up unless the session allows some.
    expect(await remaining(c, {customer_reference: reference})).toMatchObject({
      remaining_orders: Math.max(0, WIDGET_CAPS.maxOrders.default - 1),
      remaining_topups: WIDGET_CAPS.maxTopups.default,
    });
    expect(await remaining(c, {...capped, customer_reference: 'someone-else'})).toMatchObject({remaining_orders: 2});
    // Without the reference the caps count against, there is no session: nothing would be capped.
    expectInvalid(await session(c, {max_orders: 1}), WIDGET_CAPS.countsAgainst.orders);

    // Only the widget enforces the caps: the API takes an order and a top-up past them.
    const caps = {customer_reference: reference, max_orders: 1, max_topups: 0};
    expect(await remaining(c, caps)).toMatchObject({remaining_orders: 0, remaining_topups: 0});
    const referenced = {package_id: SAMPLES.packageId, customer_reference: reference};
    const pastOrderCap = await c.call('POST', '/v1/orders', referenced);
    const pastTopupCap = await c.call('POST', `/v1/esims/${iccid}/topups`, {package_id: SAMPLES.topupPackageId});
    const accepted = !WIDGET_CAPS.enforcedByApi;
    expect(pastOrderCap.status === 201, JSON.stringify(pastOrderCap.body)).toBe(accepted);
    expect(pastTopupCap.status === 201, JSON.stringify(pastTopupCap.body)).toBe(accepted);
  });

  test(`the caps count orders ${WIDGET_CAPS.counted.orders.join('/')} (cancelled too, not failed) and top-ups ${WIDGET_CAPS.counted.topups.join('/')}, as the model says`, async () => {
    expect(WIDGET_CAPS.counted.orders).toContain('cancelled');
    expect(WIDGET_CAPS.counted.orders).not.toContain('failed');
    expect(WIDGET_CAPS.counted.topups).not.toContain('failed');
    const c = await account();
    const reference = 'counted-booking';
    const cap = 10;
    const counted = (statuses: readonly string[], items: {status: string}[]) =>
      items.filter((item) => statuses.includes(item.status)).length;
    const cancelled = await ordered(c, reference);
    const cancelledNow = (await c.post(`/v1/orders/${cancelled.id}/cancel`)) as {status: string};
    const failed = await ordered(c, reference, SANDBOX.slowFailingPackageId);
    const failedNow = (await c.get(`/v1/orders/${failed.id}`)) as {status: string};
    const processing = await ordered(c, reference, SANDBOX.slowPackageId);
    const completed = await ordered(c, reference);
    // Their statuses as answered: reading the processing order, alone or in a list, would complete it.
    const orders = [cancelledNow, failedNow, processing, completed];
    expect(orders.map((order) => order.status).sort()).toEqual(['cancelled', 'completed', 'failed', 'processing']);
    const remaining_orders = cap - counted(WIDGET_CAPS.counted.orders, orders);
    expect(await remaining(c, {customer_reference: reference, max_orders: cap})).toMatchObject({remaining_orders});

    // Their statuses as answered: listing the eSIM's top-ups would apply the pending one.
    const iccid = completed.esims[0]!.iccid;
    const topups: {status: string}[] = [];
    for (const package_id of [SANDBOX.pendingTopupPackageId, SANDBOX.failingTopupPackageId])
      topups.push(await c.topup(iccid, package_id));
    expect(topups.map((topup) => topup.status).sort()).toEqual(['failed', 'pending']);
    const manage = {mode: 'manage', iccid, customer_reference: reference, max_topups: cap};
    const remaining_topups = cap - counted(WIDGET_CAPS.counted.topups, topups);
    expect(await remaining(c, manage)).toMatchObject({remaining_topups});
  });
});

test.describe('lists, usage and updates', () => {
  const triggers = Object.entries(SANDBOX).flatMap(([name, id]) => (name.endsWith('PackageId') ? [String(id)] : []));

  test('the pending, the pending failing, then the failing top-up end the topup-packages of an eSIM that takes top-ups, and of no other', async () => {
    const c = await account();
    const topupsOf = (iccid: string) => c.ids(`/v1/esims/${iccid}/topup-packages?limit=${LIMITS.pageSizeMax}`);
    const topups = await topupsOf(await c.iccidOf(SAMPLES.packageId));
    expect(topups.at(-1)).toBe(SANDBOX.failingTopupPackageId);
    expect(topups.filter((id) => triggers.includes(id))).toEqual([
      SANDBOX.pendingTopupPackageId,
      SANDBOX.pendingFailingTopupPackageId,
      SANDBOX.failingTopupPackageId,
    ]);
    const noTopups = await c.iccidOf(PACKAGES.find((candidate) => !candidate.topup_available)!.id);
    expect(await topupsOf(noTopups)).toEqual([]);
    const refused = await c.call('POST', `/v1/esims/${noTopups}/topups`, {package_id: SANDBOX.pendingTopupPackageId});
    expectError(refused, 'topup_not_allowed');
  });

  test('400 validation_failed names what is wrong: page= (retired, and the contract no longer offers it), limit=0 on every list (the contract documents it: afterEach), a cursor this API did not return, a test event of a type that does not exist', async () => {
    const c = await client();
    for (const list of ['/v1/orders', '/v1/esims']) expectInvalid(await c.call('GET', `${list}?page=2`), 'page', list);
    const paged = operationsWith((parameter) => parameter.name === 'page');
    expect(paged.map(({method, path}) => `${method} ${path}`)).toEqual([]);

    const iccid = await c.iccidOf();
    const lists = operationsWith((parameter) => parameter.name === 'limit').filter(({method}) => method === 'GET');
    expect(lists.length).toBeGreaterThan(5);
    for (const {path: apiPath} of lists)
      expectInvalid(await c.call('GET', `${apiPath.replace('{iccid}', iccid)}?limit=0`), 'limit', apiPath);

    const cursorOf = (text: string) => `c_${Buffer.from(text).toString('base64url')}`;
    const ordersCursor = cursorOf(JSON.stringify({id: 'ord_01JB7Z3KQ8'}));
    const malformed = ['garbage', cursorOf('not json'), cursorOf('[]')].map((cursor) => ['/v1/orders', cursor]);
    // A list in a fixed order knows every item a cursor can name.
    for (const [list, cursor] of [...malformed, ['/v1/destinations', ordersCursor], ['/v1/packages', ordersCursor]])
      expectInvalid(await c.call('GET', `${list}?cursor=${cursor}`), 'cursor', `${list} ${cursor}`);

    const endpointTest = `/v1/webhook-endpoints/${String(c.endpoint.id)}/test`;
    expectInvalid(await c.call('POST', endpointTest, {type: 'esim.teleported'}), 'type');
  });

  test('every operation refuses a malformed id in its path with 400 validation_failed naming it; every one that takes an Idempotency-Key refuses a malformed key (400) and a key used for another request (409) (the contract documents them: afterEach)', async () => {
    const c = await account();
    const patterned = ({in: where, schema}: OpenApiParameter & {schema?: object}) =>
      where === 'path' && !!schema && !!resolveRef<{pattern?: string}>(document, schema).pattern;
    const operations = operationsWith(patterned).filter(({path: apiPath}) => apiPath.startsWith('/v1/'));
    expect(operations.length).toBeGreaterThan(5);
    for (const {method, path: apiPath, operation} of operations) {
      const {name} = parametersOf(document, operation).find(patterned)!;
      // A space matches no id pattern; the operation's example body (if any) leaves the id the only thing wrong.
      const answer = await c.call(method, apiPath.replace(`{${name}}`, 'not%20an%20id'), exampleBody(operation));
      expectInvalid(answer, name, `${method} ${apiPath}`);
    }
    const usedKey = newKey();
    c.ok(await c.call('POST', '/v1/sandbox/balance', {amount: 123_456}, {key: usedKey}));
    const tooLongKey = 'k'.repeat(LIMITS.idempotencyKeyMaxLength + 1);
    const keyed = operationsWith((parameter) => parameter.name === 'Idempotency-Key');
    expect(keyed.length).toBeGreaterThan(10);
    for (const {method, path: apiPath, operation} of keyed) {
      // The contract's own examples: a valid request, so only the key can be refused.
      const send = (key: string) =>
        c.call(method, concretePathOf(document, apiPath, operation), exampleBody(operation), {key});
      expectError(await send(usedKey), 'idempotency_key_reused', undefined, `${method} ${apiPath}`);
      expectInvalid(await send(tooLongKey), 'Idempotency-Key', `${method} ${apiPath}`);
    }
  });

  test('an operation without a request body ignores one sent anyway: malformed JSON never answers invalid_request there', async () => {
    const c = await account();
    const bodiless = listOperations(document).filter(
      ({method, path: apiPath, operation}) =>
        method !== 'GET' &&
        apiPath.startsWith('/v1/') &&
        !operationFacts(document, method, apiPath, operation).takesBody,
    );
    expect(bodiless.length).toBeGreaterThan(0);
    const raw = '{"broken": ';
    for (const {method, path: apiPath, operation} of bodiless) {
      const answer = await c.call(method, concretePathOf(document, apiPath, operation), undefined, {raw});
      expect((answer.body.error as ErrorBody | undefined)?.code, `${method} ${apiPath}`).not.toBe('invalid_request');
    }
  });

  /** The ids of a list, `limit` at a time, following next_cursor; `afterFirstPage` runs between the first two pages. */
  async function walk(c: Account, list: string, limit: number = LIMITS.pageSizeMax, afterFirstPage?: () => unknown) {
    const items: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = `${list.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await c.get(`${list}${query}`);
      items.push(...(page.data as typeof items));
      cursor = page.has_more ? (page.next_cursor as string) : null;
      if (++pages === 1) await afterFirstPage?.();
    } while (cursor && pages < 100);
    return items.map((item) => String(item.id ?? item.iccid ?? item.code));
  }

  test('a cursor names the last item returned: an item created during a walk is not listed twice, and none is skipped; an item that stops matching the filter after its page does not make the next page skip one', async () => {
    const c = await account();
    for (let index = 0; index < 4; index++) await c.order();
    for (const list of ['/v1/orders', '/v1/esims', '/v1/balance/transactions', '/v1/events']) {
      const before = await walk(c, list);
      expect(before.length, list).toBeGreaterThan(2);
      // The new order is newer than every item listed: it belongs to a new walk.
      expect(await walk(c, list, 2, () => c.order()), list).toEqual(before);
    }
    const ready = await walk(c, '/v1/esims?status=ready');
    expect(await walk(c, '/v1/esims?status=ready', 2, () => c.simulate(ready[1]!, 'activated'))).toEqual(ready);
  });

  test('the catalogue, destinations and top-up packages list the same order in small pages as in the largest; trigger packages are never in the catalogue', async () => {
    const c = await account();
    const iccid = await c.iccidOf();
    const wholes: Record<string, string[]> = {};
    const lists = ['/v1/packages', '/v1/packages?country=JP', '/v1/destinations', `/v1/esims/${iccid}/topup-packages`];
    for (const list of lists) {
      const whole = (wholes[list] = await walk(c, list));
      // Small pages, but no more than 20 of them a list: the walks stay within the credential's rate limit.
      const small = Math.max(2, Math.ceil(whole.length / 20));
      expect(whole.length, list).toBeGreaterThan(small);
      expect(await walk(c, list, small), list).toEqual(whole);
    }
    // The catalogue is every package of the sandbox's but the triggers; the country filter keeps exactly its own.
    const catalogue = PACKAGES.filter((pkg) => !triggers.includes(pkg.id));
    expect([...wholes['/v1/packages']!].sort()).toEqual(catalogue.map((pkg) => pkg.id).sort());
    const japanese = new Set(catalogue.filter((pkg) => pkg.countries.includes('JP')).map((pkg) => pkg.id));
    expect(wholes['/v1/packages?country=JP']).toEqual(wholes['/v1/packages']!.filter((id) => japanese.has(id)));
  });

  test('a usage 429 carries the ICCID bucket’s own rate-limit headers', async () => {
    const c = await account();
    const iccid = await c.iccidOf();
    await c.get(`/v1/esims/${iccid}/usage`);
    const limited = await c.call('GET', `/v1/esims/${iccid}/usage`);
    expectError(limited, 'rate_limited');
    expect(limited.headers.get('x-ratelimit-limit')).toBe(String(LIMITS.usageCallsPerMinutePerIccid));
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe(Number(limited.headers.get('retry-after')));
  });

  test('PATCH replaces metadata as a whole; a field not sent keeps its value', async () => {
    const c = await account();
    const iccid = await c.iccidOf();
    c.ok(await c.call('PATCH', `/v1/esims/${iccid}`, {label: 'Anna', metadata: {trip: 'TYO', seat: '12A'}}));
    const patched = c.ok(await c.call('PATCH', `/v1/esims/${iccid}`, {metadata: {trip: 'OSA'}}));
    expect(patched).toMatchObject({label: 'Anna', metadata: {trip: 'OSA'}});
    expect((await c.get(`/v1/esims/${iccid}`)).metadata as object).toEqual({trip: 'OSA'});
  });
});

test('the contract states the model: error codes, retry policies, simulate actions, action operations, balance transaction types, widget caps and top-up validity', () => {
  const all = schemas();
  expect([...all.ErrorCode!.enum!].sort()).toEqual(ERROR_CODES.map((rule) => rule.code).sort());
  expect([...all.RetryPolicy!.enum!].sort()).toEqual(Object.keys(RETRY_POLICIES).sort());
  const simulate = (all.SimulateRequest!.properties as {action: {enum: string[]}}).action.enum;
  expect(simulate).toEqual([...SANDBOX.simulateActions]);
  expect([...simulate].sort()).toEqual(Object.keys(SIMULATE_ACTIONS).sort());
  const types = (all.BalanceTransaction!.properties as {type: {enum: string[]}}).type.enum;
  expect([...types].sort()).toEqual(
    [...new Set(ACTIONS.flatMap((action) => action.balance.map((movement) => movement.type)))].sort(),
  );
  const operations = listOperations(document).map(({method, path}) => `${method} ${path}`);
  const actionOperations = (ACTIONS as readonly Action[]).flatMap((action) => action.operation ?? []);
  expect(actionOperations.filter((operation) => !operations.includes(operation))).toEqual([]);
  const sessionRequest = all.CreateWidgetSessionRequest! as {
    required: string[];
    properties: Record<'max_orders' | 'max_topups', {description: string; default: number}>;
  };
  const {max_orders, max_topups} = sessionRequest.properties;
  expect(max_orders.default).toBe(WIDGET_CAPS.maxOrders.default);
  expect(max_topups.default).toBe(WIDGET_CAPS.maxTopups.default);
  // The caps count against it, so a session without it would cap nothing.
  expect(sessionRequest.required).toContain(WIDGET_CAPS.countsAgainst.orders);
  const post = (apiPath: string) => document.paths[apiPath]!.post as OpenApiOperation & {description: string};
  const [createRefund, cancelOrder] = [post('/v1/refunds'), post('/v1/orders/{order_id}/cancel')];
  expect(operationScopes(document, createRefund)).toContain(REFUND_RULES.scope);
  expect(operationScopes(document, cancelOrder)).toContain(REFUND_RULES.scope);
  // The event catalogue's summaries: when the clock starts (both policies), and what a failed order charges.
  const when = (type: string) => webhookEventExamples(document).find((example) => example.type === type)!.when;
  const failBalance = ACTIONS.find((candidate) => candidate.id === 'order.fail')!.balance;
  // Each description states the model's sentences; idempotency and pagination where the contract explains them.
  const {parameters} = document.components as {parameters: Record<string, {description: string}>};
  const idempotency = [IDEMPOTENCY.storedSentence, IDEMPOTENCY.replaySentence, IDEMPOTENCY.sameRequestSentence];
  const statements: [string, string, readonly string[]][] = [
    ['max_orders', max_orders.description, [WIDGET_CAPS.sentence, WIDGET_CAPS.countedSentence]],
    ['create top-up', post('/v1/esims/{iccid}/topups').description, [VALIDITY_RULES.topupSentence]],
    ['create refund', createRefund.description, [REFUND_RULES.sentence, REFUND_RULES.pendingTopupSentence]],
    ['cancel order', cancelOrder.description, [REFUND_RULES.pendingTopupSentence, REFUND_RULES.scopeSentence]],
    ['esim.activated', when('esim.activated'), Object.keys(CLOCK_STARTS)],
    ['order.failed', when('order.failed'), failBalance.map((movement) => movement.type)],
    ['Idempotency-Key', parameters.IdempotencyKeyRequired!.description, idempotency],
    ['Cursor', parameters.Cursor!.description, [PAGINATION.cursorSentence]],
    ['info', document.info.description as string, [...idempotency, PAGINATION.cursorSentence]],
  ];
  for (const [where, description, sentences] of statements)
    for (const sentence of sentences) expect(description, where).toContain(sentence);
  // Every operation documents the shared errors, as the error test above checks per operation: the model says
  // every one answers the server's, one that takes a key its refusals, and one that takes input validation_failed.
  const answeredBy = (rules: readonly ErrorRule[]) => [...new Set(rules.map((rule) => rule.answeredBy))];
  expect(answeredBy(ERROR_CODES.filter((rule) => rule.status >= 500)), 'server errors').toEqual(['every']);
  expect(answeredBy(IDEMPOTENCY.refusalCodes.map(errorRule)), 'key refusals').toEqual(['key']);
  expect(errorRule('validation_failed').answeredBy).toBe('input');
});
