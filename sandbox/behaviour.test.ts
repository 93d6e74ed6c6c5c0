/**
 * The sandbox enforces the behaviour model (src/constants/behaviour.ts), read entry by entry: every
 * error code answers with the model's status and `retry` and is stored under its key as the model says, every
 * action sends the model's webhook events and makes its balance transactions, and the validity
 * rules and widget caps hold. A new entry in the model without enforcement here fails a test.
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
  type Action,
  type ActionId,
  type ErrorCode,
  type ErrorRule,
} from '../src/constants/behaviour';
import {
  listOperations,
  operationFacts,
  operationScopes,
  resolveRef,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
} from '../lib/contract/openapi';
import {answerChecker} from '../lib/contract/validator';
import {PACKAGES} from './catalogue';
import {documentScopes, sandboxDocument, startSandbox, type Sandbox, type SandboxCredential} from './server';
import {STARTING_BALANCE, type BalanceTransaction} from './state';

let sandbox: Sandbox;
let document: OpenApiDocument;
const credentials: SandboxCredential[] = [];

test.beforeAll(async () => {
  test.setTimeout(90_000);
  document = (await sandboxDocument()).document;
  sandbox = await startSandbox({
    credentials: [],
    checkAnswer: answerChecker(document),
    // Every delivery is accepted: what is sent, not how it is retried, is under test here.
    webhookTransport: async () => 204,
    // The credential-wide limit has its own test (state.test.ts); here it would only get in the way.
    requestsPerMinute: 100_000,
  });
});

test.afterAll(async () => {
  await sandbox?.close();
});

test.afterEach(() => {
  const problems = sandbox.log.flatMap((entry) => (entry.kind === 'request' ? (entry.answerProblems ?? []) : []));
  expect(problems, 'every answer matches the contract').toEqual([]);
});

/** The pattern a parameter's schema (or the schema it refers to) gives its value, if any. */
function patternOf(parameter: OpenApiParameter & {schema?: object}): string | undefined {
  return parameter.schema ? resolveRef<{pattern?: string}>(document, parameter.schema).pattern : undefined;
}
/** What the behaviour model reads of the operation `METHOD /path`. */
function operationFactsOf(key: string) {
  const found = listOperations(document).find(({method, path}) => `${method} ${path}` === key);
  if (!found) throw new Error(`No operation ${key} in the contract`);
  return operationFacts(document, found.method, found.path, found.operation);
}
const parametersOf = (operation: OpenApiOperation) =>
  (operation.parameters ?? []).map((parameter) => resolveRef<OpenApiParameter>(document, parameter));
/** `apiPath` with each path parameter filled: by `valueOf`, else the contract's example. */
const concretePathOf = (
  apiPath: string,
  operation: OpenApiOperation,
  valueOf: (name: string, example: unknown) => unknown = (_name, example) => example,
) =>
  parametersOf(operation)
    .filter((parameter) => parameter.in === 'path')
    .reduce(
      (path, {name, example}) => path.replace(`{${name}}`, encodeURIComponent(String(valueOf(name, example)))),
      apiPath,
    );
const operationsWith = (matches: (parameter: OpenApiParameter) => boolean) =>
  listOperations(document).filter(({operation}) => parametersOf(operation).some(matches));
const requestSchemaOf = (operation: OpenApiOperation) => {
  const schema = (operation as {requestBody?: {content?: Record<string, {schema?: object}>}}).requestBody?.content?.[
    'application/json'
  ]?.schema;
  return schema && resolveRef<{properties?: Record<string, unknown>}>(document, schema);
};
const exampleBody = (operation: OpenApiOperation) =>
  (operation as {requestBody?: {content?: Record<string, {example?: unknown}>}}).requestBody?.content?.[
    'application/json'
  ]?.example;

type Result = {status: number; body: Record<string, unknown>; headers: Headers};
type CallOptions = {key?: string; headers?: Record<string, string>; token?: string | null; raw?: string};
type Order = {
  id: string;
  status: string;
  esims: {iccid: string}[];
  total: {amount: number};
  unit_price: {amount: number};
};
type Topup = {id: string; status: string; price: {amount: number}; applied_at: string | null};
type Esim = {
  iccid: string;
  status: string;
  profile_state: string;
  expires_at: string | null;
  activated_at: string | null;
};

const schemas = () => document.components.schemas as Record<string, {enum?: string[]; properties?: object}>;
const eventTypes = () => schemas().EventType!.enum!;
const errorOf = (result: Result) =>
  result.body.error as {code: string; message: string; retry: string; param: string | null; request_id: string};
const minor = (decimalText: string) => Math.round(Number(decimalText.replace(/,/g, '')) * 100);
const DAY = 86_400_000;

let clients = 0;
let keys = 0;
const newKey = () => `behaviour-${++keys}`;

async function tokenFor(credential: SandboxCredential, scope?: string): Promise<string> {
  const response = await fetch(`${sandbox.origin}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credential.clientId,
      client_secret: credential.clientSecret,
      ...(scope && {scope}),
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as {access_token: string}).access_token;
}

/** A fresh credential with every scope (its own balance and state) and a webhook endpoint for every event. */
async function client() {
  const credential: SandboxCredential = {
    clientId: `ci_test_behaviour${++clients}`,
    clientSecret: 'cs_test_behaviour',
    scopes: documentScopes(document),
  };
  // Earlier credentials stay, so their tokens stay valid.
  credentials.push(credential);
  sandbox.setCredentials([...credentials]);
  const token = await tokenFor(credential);
  const call = async (method: string, apiPath: string, body?: unknown, options: CallOptions = {}): Promise<Result> => {
    const bearer = options.token === undefined ? token : options.token;
    const response = await fetch(`${sandbox.origin}${apiPath}`, {
      method,
      headers: {
        ...(bearer !== null && {Authorization: `Bearer ${bearer}`}),
        ...((body !== undefined || options.raw !== undefined) && {'Content-Type': 'application/json'}),
        ...(method === 'POST' && {'Idempotency-Key': options.key ?? newKey()}),
        ...options.headers,
      },
      body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      headers: response.headers,
    };
  };
  const ok = (result: Result, status = 200) => {
    expect(result.status, JSON.stringify(result.body)).toBe(status);
    return result.body;
  };
  const order = async (packageId: string = SAMPLES.packageId, quantity = 1, extra: Record<string, unknown> = {}) =>
    ok(await call('POST', '/v1/orders', {package_id: packageId, quantity, ...extra}), 201) as unknown as Order;
  const iccidOf = async (packageId?: string) => (await order(packageId)).esims[0]!.iccid;
  const simulate = async (iccid: string, action: keyof typeof SIMULATE_ACTIONS, mb?: number) =>
    ok(await call('POST', `/v1/sandbox/esims/${iccid}/simulate`, {action, ...(mb && {mb})})) as unknown as Esim;
  const get = async (apiPath: string) => ok(await call('GET', apiPath));
  const esim = async (iccid: string) => (await get(`/v1/esims/${iccid}`)) as unknown as Esim;
  const topup = async (iccid: string, packageId: string) =>
    ok(await call('POST', `/v1/esims/${iccid}/topups`, {package_id: packageId}), 201) as unknown as Topup;
  const setBalance = async (amount: number) => ok(await call('POST', '/v1/sandbox/balance', {amount}));
  const endpoint = ok(
    await call('POST', '/v1/webhook-endpoints', {
      url: 'https://partner.example.org/behaviour',
      enabled_events: eventTypes(),
    }),
    201,
  );
  const transactions = async () =>
    (ok(await call('GET', `/v1/balance/transactions?limit=${LIMITS.pageSizeMax}`)).data as BalanceTransaction[])
      .slice()
      .reverse();
  /** Event types delivered to this client's endpoint so far, oldest first (one per event id). */
  const events = async () => {
    await sandbox.state.settled();
    const seen = new Set<string>();
    return sandbox.deliveries
      .filter((delivery) => delivery.endpointId === endpoint.id && !seen.has(delivery.event.id))
      .map((delivery) => {
        seen.add(delivery.event.id);
        return delivery.event.type;
      });
  };
  return {credential, endpoint, call, ok, get, order, iccidOf, simulate, esim, topup, setBalance, transactions, events};
}
type Client = Awaited<ReturnType<typeof client>>;

// Errors ---------------------------------------------------------------------------------------

/** Answers `code` by its natural cause; `key` is the Idempotency-Key the failing POST carried. */
/** `tokenEndpoint`: the answer comes from the token endpoint, in its RFC 6749 format (`error` names the code). */
/** `again`: the same request with the same key. */
type ErrorDriver = (
  c: Client,
) => Promise<{result: Result; key?: string; again?: () => Promise<Result>; tokenEndpoint?: true}>;

const keyed = async (c: Client, apiPath: string, body: unknown, options: CallOptions = {}) => {
  const key = newKey();
  const again = () => c.call('POST', apiPath, body, {...options, key});
  return {result: await again(), key, again};
};

/** Every code whose model trigger is not the X-Sandbox-Error header, caused as the model says. */
const NATURAL_TRIGGERS: Partial<Record<ErrorCode, ErrorDriver>> = {
  invalid_request: async (c) => {
    const key = newKey();
    return {result: await c.call('POST', '/v1/orders', undefined, {key, raw: '{"package_id": '}), key};
  },
  validation_failed: (c) => keyed(c, '/v1/orders', {package_id: SAMPLES.packageId, quantity: 0}),
  missing_token: (c) => keyed(c, '/v1/orders', {package_id: SAMPLES.packageId}, {token: null}),
  invalid_token: async (c) => ({result: await c.call('GET', '/v1/balance', undefined, {token: 'at_test_made_up'})}),
  insufficient_balance: async (c) => {
    await c.setBalance(0);
    const refused = await keyed(c, '/v1/orders', {package_id: SAMPLES.packageId});
    // Nothing charged, and the message names the balance.
    expect((await c.get('/v1/balance')).available).toMatchObject({amount: 0});
    expect(errorOf(refused.result).message).toContain((0).toFixed(2));
    return refused;
  },
  insufficient_scope: async (c) => {
    // The model's trigger names the token's scope and the call to make with it.
    const trigger = errorRule('insufficient_scope').sandboxTrigger!;
    const scope = /`scope=([^`]+)`/.exec(trigger)?.[1];
    const [method, apiPath] = /`(GET|POST|PATCH|DELETE) (\/v1\/[^`]+)`/.exec(trigger)?.slice(1) ?? [];
    expect([scope, method, apiPath], trigger).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    return {result: await c.call(method!, apiPath!, undefined, {token: await tokenFor(c.credential, scope)})};
  },
  environment_mismatch: async () => {
    const response = await fetch(`${sandbox.origin}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: `${ENVIRONMENTS.live.clientIdPrefix}behaviour`,
        client_secret: `${ENVIRONMENTS.live.clientSecretPrefix}behaviour`,
      }),
    });
    return {
      result: {status: response.status, body: await response.json(), headers: response.headers},
      tokenEndpoint: true,
    };
  },
  package_not_found: (c) => keyed(c, '/v1/orders', {package_id: 'xx-1gb-1d'}),
  order_not_found: async (c) => ({result: await c.call('GET', '/v1/orders/ord_unknown')}),
  esim_not_found: async (c) => ({result: await c.call('GET', `/v1/esims/${SAMPLES.iccid}`)}),
  resource_not_found: async (c) => ({result: await c.call('GET', '/v1/nothing-here')}),
  idempotency_key_reused: async (c) => {
    const key = newKey();
    const first = c.ok(await c.call('POST', '/v1/orders', {package_id: SAMPLES.packageId}, {key}), 201);
    const result = await c.call('POST', '/v1/orders', {package_id: SAMPLES.packageId, quantity: 2}, {key});
    // The 409 replaced nothing: the key still answers the first order.
    const replay = await c.call('POST', '/v1/orders', {package_id: SAMPLES.packageId}, {key});
    expect(replay.body.id).toBe(first.id);
    return {result};
  },
  topup_pending: async (c) => {
    const iccid = await c.iccidOf();
    await c.topup(iccid, SANDBOX.pendingTopupPackageId);
    return keyed(c, '/v1/refunds', {iccid});
  },
  package_unavailable: (c) => keyed(c, '/v1/orders', {package_id: SANDBOX.unavailablePackageId}),
  topup_not_allowed: async (c) => {
    const iccid = await c.iccidOf();
    await c.simulate(iccid, 'activated');
    await c.simulate(iccid, 'expire');
    return keyed(c, `/v1/esims/${iccid}/topups`, {package_id: SAMPLES.topupPackageId});
  },
  esim_not_refundable: async (c) => {
    const iccid = await c.iccidOf();
    await c.simulate(iccid, 'installed');
    return keyed(c, '/v1/refunds', {iccid});
  },
  order_not_cancellable: async (c) => {
    const created = await c.order();
    await c.simulate(created.esims[0]!.iccid, 'installed');
    return keyed(c, `/v1/orders/${created.id}/cancel`, undefined);
  },
  invalid_state: async (c) => keyed(c, `/v1/esims/${await c.iccidOf()}/resume`, undefined),
  provisioning_failed: (c) => keyed(c, '/v1/orders', {package_id: SANDBOX.failingPackageId}),
};

function expectModelError(result: Result, code: string) {
  const rule = errorRule(code);
  expect(result.status, JSON.stringify(result.body)).toBe(rule.status);
  expect(errorOf(result)).toMatchObject({code, retry: rule.retry});
}

/** 400 validation_failed naming `param` (a field, parameter or header). */
function expectInvalid(result: Result, param: string | RegExp, what?: string) {
  expectModelError(result, 'validation_failed');
  expect(errorOf(result).param, what).toEqual(typeof param === 'string' ? param : expect.stringMatching(param));
}

test.describe('errors: every code of the model', () => {
  test(`each answers its status and retry policy through ${SANDBOX.errorHeader} without running the operation, so it is not stored, and the same key then succeeds; a code the operation never answers is refused`, async () => {
    const c = await client();
    const ordering = operationFactsOf('POST /v1/orders');
    for (const rule of ERROR_CODES) {
      const key = newKey();
      const body = {package_id: SAMPLES.packageId};
      const forced = await c.call('POST', '/v1/orders', body, {key, headers: {[SANDBOX.errorHeader]: rule.code}});
      if (!answers(rule, ordering)) {
        expectInvalid(forced, SANDBOX.errorHeader, rule.code);
        expect(errorOf(forced).message, rule.code).toContain(`POST /v1/orders never answers ${rule.code}`);
        continue;
      }
      expectModelError(forced, rule.code);
      if (rule.status === 429 || rule.status === 503) expect(forced.headers.get('retry-after'), rule.code).toBe('1');
      expect(sandbox.state.storedUnderKey(c.credential.clientId, key), rule.code).toBe(false);
      const again = await c.call('POST', '/v1/orders', body, {key});
      expect(again.status, rule.code).toBe(201);
      expect(again.headers.get('idempotent-replayed'), rule.code).toBeNull();
    }
    // Another operation answers a code ordering never does.
    const esimOnly = await c.call('GET', `/v1/esims/${await c.iccidOf()}`, undefined, {
      headers: {[SANDBOX.errorHeader]: 'esim_not_found'},
    });
    expectModelError(esimOnly, 'esim_not_found');
    const unknown = await c.call(
      'POST',
      '/v1/orders',
      {package_id: SAMPLES.packageId},
      {headers: {[SANDBOX.errorHeader]: 'no_such_code'}},
    );
    expectInvalid(unknown, SANDBOX.errorHeader);
  });

  // A model that says an operation can answer a code it never does would send integrators after a branch that never
  // runs: each operation named for a not-found code gets its own request with that one id unknown, in its path or in
  // its body (a list of ids holds only the unknown one).
  const UNKNOWN_IDS: Partial<Record<ErrorCode, {fields: string[]; unknown: string}>> = {
    package_not_found: {fields: ['package_id', 'package_ids'], unknown: 'xx-1gb-1d'},
    order_not_found: {fields: ['order_id'], unknown: 'ord_UNKNOWN01'},
    esim_not_found: {fields: ['iccid'], unknown: SAMPLES.iccid},
    resource_not_found: {fields: ['id'], unknown: 'we_UNKNOWN01'},
  };
  test('every operation the model names for a not-found code answers it when that one id is unknown', async () => {
    const notFound = ERROR_CODES.filter(({status, answeredBy}) => status === 404 && typeof answeredBy !== 'string');
    expect(
      notFound.map(({code}) => code).filter((code) => !(code in UNKNOWN_IDS)),
      'an unknown id for every not-found code of the model',
    ).toEqual([]);
    const c = await client();
    const ownIccid = await c.iccidOf();
    for (const [code, {fields, unknown}] of Object.entries(UNKNOWN_IDS)) {
      // Every other id is one the client has (its own eSIM) or the contract's example.
      const idFor = (name: string, example: unknown) =>
        fields.includes(name) ? unknown : name === 'iccid' ? ownIccid : example;
      const named = errorRule(code).answeredBy as readonly string[];
      for (const {method, path: apiPath, operation} of listOperations(document)) {
        if (!named.includes(`${method} ${apiPath}`)) continue;
        const concretePath = concretePathOf(apiPath, operation, idFor);
        const example = exampleBody(operation) as Record<string, unknown> | undefined;
        const properties = (requestSchemaOf(operation)?.properties ?? {}) as Record<string, {type?: string}>;
        const bodyFields = Object.keys(properties);
        const body = example && {
          ...example,
          ...Object.fromEntries(
            bodyFields
              .filter((name) => fields.includes(name) || (name === 'iccid' && name in example))
              .map((name) => [
                name,
                properties[name]!.type === 'array' ? [idFor(name, undefined)] : idFor(name, example[name]),
              ]),
          ),
        };
        const answer = await c.call(method, concretePath, body, {key: newKey()});
        expect(errorOf(answer)?.code, `${method} ${apiPath} with ${fields.join(' / ')} unknown`).toBe(code);
      }
    }
  });

  test('the operations the model says answer each code exist, document its status, and each error status they document has a code', () => {
    const problems: string[] = [];
    const operations = listOperations(document).map(({method, path}) => `${method} ${path}`);
    for (const rule of ERROR_CODES as readonly ErrorRule[]) {
      if (typeof rule.answeredBy !== 'string') {
        for (const named of rule.answeredBy.filter((operation) => !operations.includes(operation)))
          problems.push(`${rule.code}: no operation ${named} in the contract`);
      }
    }
    let documented = 0;
    for (const {method, path: apiPath, operation} of listOperations(document)) {
      const key = `${method} ${apiPath}`;
      const facts = operationFacts(document, method, apiPath, operation);
      const responses = (operation.responses ?? {}) as Record<string, unknown>;
      for (const rule of ERROR_CODES.filter((candidate) => answers(candidate, facts))) {
        if (!responses[String(rule.status)])
          problems.push(`${key} answers ${rule.code}, but documents no ${rule.status}`);
      }
      for (const [status, raw] of Object.entries(responses)) {
        const schema = resolveRef<{content?: Record<string, {schema?: {$ref?: string}}>}>(document, raw as never)
          .content?.['application/json']?.schema?.$ref;
        if (Number(status) < 400 || !schema?.endsWith('/ErrorEnvelope')) continue;
        documented++;
        if (!ERROR_CODES.some((rule) => String(rule.status) === status && answers(rule, facts)))
          problems.push(`${key} documents ${status}, but the model gives it no code of that status`);
      }
    }
    console.log(`error statuses documented with the error envelope: ${documented}, each with a code of the model`);
    expect(documented).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  test('each code the model says the sandbox causes naturally is caused that way, with the model’s status and retry, and stored under its key as the model says', async () => {
    const natural = ERROR_CODES.filter(
      (rule) => rule.sandboxTrigger && !rule.sandboxTrigger.includes(SANDBOX.errorHeader),
    );
    expect(
      natural.filter((rule) => !NATURAL_TRIGGERS[rule.code]).map((rule) => rule.code),
      'a driver for every natural trigger of the model',
    ).toEqual([]);
    for (const rule of natural) {
      const c = await client();
      const {result, key, again, tokenEndpoint} = await NATURAL_TRIGGERS[rule.code]!(c);
      if (tokenEndpoint) {
        expect(result.status, rule.code).toBe(rule.status);
        expect(result.body, rule.code).toEqual({error: rule.code, error_description: expect.any(String)});
      } else {
        expectModelError(result, rule.code);
      }
      if (key) {
        const stored = IDEMPOTENCY.isStored(rule.status, rule.code);
        expect(sandbox.state.storedUnderKey(c.credential.clientId, key), rule.code).toBe(stored);
        // Stored: the same request with the same key is the first answer, as it was sent.
        const replay = stored && again ? await again() : undefined;
        if (replay) {
          expect(replay.headers.get(IDEMPOTENCY.replayHeader), rule.code).toBe('true');
          expect(replay.body, rule.code).toEqual(result.body);
        }
      }
    }
  });

  test(`keys are remembered per account (${IDEMPOTENCY.rememberedFor}); each local sandbox credential is an account of its own`, async () => {
    const [first, second] = [await client(), await client()];
    const key = newKey();
    const body = {package_id: SAMPLES.packageId};
    const placed = first.ok(await first.call('POST', '/v1/orders', body, {key}), 201);
    const replay = await first.call('POST', '/v1/orders', body, {key});
    expect(replay.headers.get(IDEMPOTENCY.replayHeader)).toBe('true');
    expect(replay.body.id).toBe(placed.id);
    // Another account: the same key is a new request there.
    const elsewhere = await second.call('POST', '/v1/orders', body, {key});
    expect(second.ok(elsewhere, 201).id).not.toBe(placed.id);
    expect(elsewhere.headers.get(IDEMPOTENCY.replayHeader)).toBeNull();
  });

  test('what is stored is the model’s: every answer but a 401, 403, 429, 5xx or the key’s own 409s', () => {
    const expectedUnstored = new Set(['idempotency_key_reused', 'idempotency_in_progress']);
    for (const rule of ERROR_CODES) {
      const unstored = [401, 403, 429].includes(rule.status) || rule.status >= 500 || expectedUnstored.has(rule.code);
      expect(IDEMPOTENCY.isStored(rule.status, rule.code), rule.code).toBe(!unstored);
    }
    expect(IDEMPOTENCY.isStored(200) && IDEMPOTENCY.isStored(201)).toBe(true);
    expect(IDEMPOTENCY.isStored(402, 'insufficient_balance') && IDEMPOTENCY.isStored(422, 'provisioning_failed')).toBe(
      true,
    );
    expect(IDEMPOTENCY.storedSentence).toContain('with a new key');
    expect(RETRY_POLICIES.after_fix.label).toContain('new key');
  });

  test('the same request is the same method, path and JSON value: reordered keys and spacing replay; another value, a default sent or another endpoint is idempotency_key_reused', async () => {
    const c = await client();
    const key = newKey();
    const packageId = JSON.stringify(SAMPLES.packageId);
    const first = c.ok(
      await c.call('POST', '/v1/orders', undefined, {key, raw: `{"quantity":1,"package_id":${packageId}}`}),
      201,
    );
    // A client that rebuilds its JSON for the retry: other key order, other spacing, the same value.
    const rebuilt = await c.call('POST', '/v1/orders', undefined, {
      key,
      raw: `{\n  "package_id": ${packageId},\n  "quantity": 1\n}`,
    });
    expect(rebuilt.headers.get(IDEMPOTENCY.replayHeader)).toBe('true');
    expect(c.ok(rebuilt, 201).id).toBe(first.id);
    for (const other of [
      c.call('POST', '/v1/orders', {package_id: SAMPLES.packageId, quantity: 2}, {key}),
      // Leaving out `quantity` is not the same as sending its default.
      c.call('POST', '/v1/orders', {package_id: SAMPLES.packageId}, {key}),
      c.call(
        'POST',
        `/v1/esims/${(first as unknown as Order).esims[0]!.iccid}/topups`,
        {package_id: SAMPLES.topupPackageId},
        {key},
      ),
    ]) {
      expectModelError(await other, 'idempotency_key_reused');
    }
    expect((await c.get('/v1/orders')).data).toHaveLength(1);
  });

  test('a replay is the first answer, not the order now: GET /v1/orders/{order_id} reads the current state', async () => {
    const c = await client();
    const key = newKey();
    const body = {package_id: SANDBOX.slowPackageId};
    const first = c.ok(await c.call('POST', '/v1/orders', body, {key}), 201);
    expect(first).toMatchObject({status: 'processing', esims: []});
    const now = await c.get(`/v1/orders/${String(first.id)}`);
    expect(now).toMatchObject({status: 'completed'});
    const replay = await c.call('POST', '/v1/orders', body, {key});
    expect(replay.headers.get(IDEMPOTENCY.replayHeader)).toBe('true');
    expect(replay.body).toEqual(first);
    expect(IDEMPOTENCY.replaySentence).toContain('GET /v1/orders/{order_id}');
  });
});

// Actions --------------------------------------------------------------------------------------

type Driver = (c: Client) => Promise<{
  /** Performs the action; what it sends and records is compared with the model. */
  act: () => Promise<unknown>;
  /** eSIMs the action covers (for `×` events and per-eSIM transactions). */
  esims?: number;
  /** Actions the act performs as well (their events and transactions are expected too). */
  also?: ActionId[];
}>;

const esimThat = (action: keyof typeof SIMULATE_ACTIONS) => async (c: Client) => {
  const iccid = await c.iccidOf();
  await c.simulate(iccid, action);
  return iccid;
};
const activeEsim = esimThat('activated');
const installedEsim = esimThat('installed');
/** An action simulated on an eSIM `prepare` gives, answering the eSIM as `expected`. */
const simulated =
  (action: keyof typeof SIMULATE_ACTIONS, expected: Partial<Esim>, prepare = (c: Client) => c.iccidOf()): Driver =>
  async (c) => {
    const iccid = await prepare(c);
    return {act: async () => expect(await c.simulate(iccid, action)).toMatchObject(expected)};
  };
/** A top-up of `packageId` on an active eSIM, answered as `expected`. */
const toppedUp =
  (packageId: string, expected: Partial<Topup>): Driver =>
  async (c) => {
    const iccid = await activeEsim(c);
    return {act: async () => expect(await c.topup(iccid, packageId)).toMatchObject(expected)};
  };
/** A pending top-up of `packageId` on an active eSIM, settled by listing the eSIM's top-ups. */
const settledTopup =
  (packageId: string, expected: Record<string, unknown>): Driver =>
  async (c) => {
    const iccid = await activeEsim(c);
    const topup = await c.topup(iccid, packageId);
    expect(topup).toMatchObject({status: 'pending'});
    return {
      act: async () =>
        expect((await c.get(`/v1/esims/${iccid}/topups`)).data).toMatchObject([{id: topup.id, ...expected}]),
    };
  };

const DRIVERS: Record<ActionId, Driver> = {
  'order.create': async (c) => ({
    act: async () => expect((await c.order()).status).toBe('completed'),
  }),
  'order.processing': async (c) => ({
    act: async () => expect(await c.order(SANDBOX.slowPackageId)).toMatchObject({status: 'processing', esims: []}),
  }),
  'order.complete': async (c) => {
    const created = await c.order(SANDBOX.slowPackageId);
    // Its next read, in a list as well as on its own (the replay test reads it on its own).
    return {
      act: async () =>
        expect(((await c.get('/v1/orders')).data as Order[]).find(({id}) => id === created.id)).toMatchObject({
          status: 'completed',
          esims: [{status: 'ready'}],
        }),
    };
  },
  'order.fail': async (c) => {
    const created = await c.order(SANDBOX.slowFailingPackageId);
    return {
      act: async () => expect(await c.get(`/v1/orders/${created.id}`)).toMatchObject({status: 'failed', esims: []}),
    };
  },
  'order.reject': async (c) => ({
    act: async () => {
      expectModelError(
        await c.call('POST', '/v1/orders', {package_id: SANDBOX.failingPackageId}),
        'provisioning_failed',
      );
      expect((await c.get('/v1/orders')).data).toEqual([]);
      expect((await c.get('/v1/balance')).available, 'nothing charged').toMatchObject({amount: STARTING_BALANCE});
    },
  }),
  'order.cancel': async (c) => {
    const created = await c.order(SAMPLES.packageId, 2);
    return {
      esims: 2,
      act: async () => {
        const cancelled = c.ok(await c.call('POST', `/v1/orders/${created.id}/cancel`));
        expect(cancelled).toMatchObject({
          status: 'cancelled',
          cancelled_at: expect.any(String),
          refunded_total: {amount: created.total.amount},
        });
        const refunds = (await c.transactions()).filter((t) => t.type === 'refund');
        expect(refunds.map((t) => t.amount.amount)).toEqual([created.unit_price.amount, created.unit_price.amount]);
      },
    };
  },
  'refund.create': async (c) => {
    const created = await c.order();
    const iccid = created.esims[0]!.iccid;
    // REFUND_RULES: the applied top-up on the never-installed eSIM is refunded with it only if the model says so.
    const topup = await c.topup(iccid, SAMPLES.topupPackageId);
    const topupPrice = topup.price.amount;
    return {
      act: async () =>
        expect(c.ok(await c.call('POST', '/v1/refunds', {iccid}), 201)).toMatchObject({
          amount: {amount: created.unit_price.amount + (REFUND_RULES.includesTopups ? topupPrice : 0)},
        }),
    };
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
  'esim.suspend': async (c) => {
    const iccid = await c.iccidOf();
    return {
      act: async () =>
        expect(c.ok(await c.call('POST', `/v1/esims/${iccid}/suspend`))).toMatchObject({status: 'suspended'}),
    };
  },
  'esim.resume': async (c) => {
    const iccid = await c.iccidOf();
    c.ok(await c.call('POST', `/v1/esims/${iccid}/suspend`));
    return {
      act: async () => expect(c.ok(await c.call('POST', `/v1/esims/${iccid}/resume`))).toMatchObject({status: 'ready'}),
    };
  },
  'esim.expiring_soon': async (c) => {
    const iccid = await activeEsim(c);
    return {
      act: async () => {
        const before = Math.floor(Date.now() / 1000) * 1000;
        const after = await c.simulate(iccid, 'expiring_soon');
        const expires = Date.parse(after.expires_at!);
        expect(expires).toBeGreaterThanOrEqual(before + LIFETIMES.expiringSoonHours * 3_600_000);
        expect(expires).toBeLessThanOrEqual(Date.now() + LIFETIMES.expiringSoonHours * 3_600_000);
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

/** What the model says an action sends and records, for `esims` eSIMs. */
function modelEffects(action: Action, esims: number) {
  const repeat = <T>(value: T, times: number) => Array.from({length: times}, () => value);
  return {
    events: action.events.flatMap((event) => (event.endsWith(' ×') ? repeat(event.slice(0, -2), esims) : [event])),
    balance: action.balance.flatMap((movement) =>
      repeat(`${movement.type} ${movement.direction}`, movement.perEsim ? esims : 1),
    ),
  };
}

test.describe('actions: each sends the model’s events and makes its balance transactions', () => {
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
      const expected = [action, ...also.map((id) => ACTIONS.find((candidate) => candidate.id === id)!)].map((a) =>
        modelEffects(a, esims),
      );
      const expectedEvents = expected.flatMap((effects) => effects.events);
      const expectedBalance = expected.flatMap((effects) => effects.balance);
      // One action: in the model's order; with others, as a set of the same size.
      const order = (list: string[]) => (also.length > 0 ? [...list].sort() : list);
      expect(order(events), 'webhook events').toEqual(order(expectedEvents));
      expect(order(balance), 'balance transactions').toEqual(order(expectedBalance));
      expect(made.every((t) => t.amount.amount !== 0)).toBe(true);
    });
  }
});

// Events ---------------------------------------------------------------------------------------

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

test.describe('an event carries its resource as the API answers it once the change is made', () => {
  test('installing, activating and expiring: the event carries the eSIM exactly as the simulate answer does', async () => {
    const c = await client();
    const iccid = await c.iccidOf();
    for (const [action, type] of [
      ['installed', 'esim.installed'],
      ['activated', 'esim.activated'],
      ['expire', 'esim.expired'],
    ] as const) {
      const answered = await c.simulate(iccid, action);
      const listed = (await c.get(`/v1/events?type=${type}&limit=${LIMITS.pageSizeMax}`)).data as {
        data: {object: Esim};
      }[];
      const event = listed.find((candidate) => candidate.data.object.iccid === iccid);
      // The QR code's URL is signed when it is read, so it differs from one read to the next.
      const signedQr = {activation: expect.objectContaining({qr_code_url: expect.stringContaining('qr.png?sig=')})};
      expect(event?.data.object, type).toMatchObject({...answered, ...signedQr});
      expect(answered).toMatchObject(signedQr);
    }
  });

  test('using up the data: each esim.usage_threshold carries the eSIM as that consume_data answered it, depleted at 100 %', async () => {
    const c = await client();
    const iccid = await c.iccidOf();
    await c.simulate(iccid, 'activated');
    const halfUsed = await c.simulate(iccid, 'consume_data', SAMPLE_PACKAGE.dataMb / 2);
    const usedUp = await c.simulate(iccid, 'consume_data', SAMPLE_PACKAGE.dataMb);
    expect([halfUsed.status, usedUp.status]).toEqual(['active', 'depleted']);
    const listed = (await c.get(`/v1/events?type=esim.usage_threshold&limit=${LIMITS.pageSizeMax}`)).data as {
      data: {object: Esim; threshold: number};
    }[];
    const ofEsim = listed.filter((event) => event.data.object.iccid === iccid).reverse();
    expect(ofEsim.map((event) => [event.data.threshold, event.data.object.status])).toEqual([
      [USAGE_THRESHOLDS[0], halfUsed.status],
      ...USAGE_THRESHOLDS.slice(1).map((threshold) => [threshold, usedUp.status]),
    ]);
    const expired = await c.simulate(iccid, 'expire');
    const [expiredEvent] = (await c.get('/v1/events?type=esim.expired&limit=1')).data as {
      data: {object: Esim};
    }[];
    expect(expiredEvent!.data.object).toMatchObject({iccid, status: expired.status, expires_at: expired.expires_at});
  });
});

// Refunds ----------------------------------------------------------------------------------------

test.describe('refunds', () => {
  test('refunding a never-installed eSIM returns its unit price; applied top-ups are not refunded (billing: they are non-refundable); refunded_total never exceeds total', async () => {
    // domain.md, Billing: "Installed/used eSIMs and applied top-ups are non-refundable".
    expect(REFUND_RULES.includesTopups).toBe(false);
    const c = await client();
    const balanceNow = async () => ((await c.get('/v1/balance')).available as {amount: number}).amount;
    const opening = await balanceNow();
    const created = await c.order(SAMPLES.packageId, 2);
    const [iccid, other] = created.esims.map((esim) => esim.iccid) as [string, string];
    const applied = await c.topup(iccid, SAMPLES.topupPackageId);
    const failed = await c.topup(iccid, SANDBOX.failingTopupPackageId);
    expect(failed.status).toBe('failed');
    const appliedPrice = applied.price.amount;
    const before = (await c.transactions()).length;

    const refund = c.ok(await c.call('POST', '/v1/refunds', {iccid}), 201) as {id: string; amount: {amount: number}};
    expect(refund.amount.amount).toBe(created.unit_price.amount);
    const made = (await c.transactions()).slice(before);
    expect(made.map((t) => [t.type, t.amount.amount, t.source_id])).toEqual([
      ['refund', created.unit_price.amount, refund.id],
    ]);
    // What the applied top-up cost stays spent; the failed one came back when it failed.
    c.ok(await c.call('POST', '/v1/refunds', {iccid: other}), 201);
    expect(await balanceNow()).toBe(opening - appliedPrice);
    const order = (await c.get(`/v1/orders/${created.id}`)) as {
      status: string;
      total: {amount: number};
      refunded_total: {amount: number};
    };
    expect(order.status).toBe('cancelled');
    expect(order.refunded_total.amount).toBe(order.total.amount);
  });

  test(`while a top-up is pending, refund and cancel answer ${REFUND_RULES.refusedWhileTopupPending} and change nothing; once it settles the same keys replay the ${REFUND_RULES.refusedWhileTopupPending}, and new keys go through, refunding it once`, async () => {
    const c = await client();
    const created = await c.order(SAMPLES.packageId, 2);
    const [first, second] = created.esims.map(({iccid}) => iccid) as [string, string];
    const pending = await c.topup(second, SANDBOX.pendingTopupPackageId);
    expect(pending.status).toBe('pending');
    const before = (await c.transactions()).length;
    const cancelKey = newKey();
    const refundKey = newKey();
    expectModelError(
      await c.call('POST', `/v1/orders/${created.id}/cancel`, undefined, {key: cancelKey}),
      REFUND_RULES.refusedWhileTopupPending,
    );
    expectModelError(
      await c.call('POST', '/v1/refunds', {iccid: second}, {key: refundKey}),
      REFUND_RULES.refusedWhileTopupPending,
    );
    // The other eSIM has no pending top-up of its own: it can still be refunded alone.
    c.ok(await c.call('POST', '/v1/refunds', {iccid: first}), 201);
    expect((await c.transactions()).slice(before).map((t) => t.type)).toEqual(['refund']);
    expect((await c.esim(second)).status).toBe('ready');

    const listed = (await c.get(`/v1/esims/${second}/topups`)).data as {id: string; status: string}[];
    expect(listed).toMatchObject([{id: pending.id, status: 'applied'}]);
    // The refusals are stored under their keys: the same keys replay them.
    for (const replayed of [
      await c.call('POST', `/v1/orders/${created.id}/cancel`, undefined, {key: cancelKey}),
      await c.call('POST', '/v1/refunds', {iccid: second}, {key: refundKey}),
    ]) {
      expectModelError(replayed, REFUND_RULES.refusedWhileTopupPending);
      expect(replayed.headers.get(IDEMPOTENCY.replayHeader)).toBe('true');
    }
    const refund = c.ok(await c.call('POST', '/v1/refunds', {iccid: second}, {key: newKey()}), 201) as {
      amount: {amount: number};
    };
    expect(refund.amount.amount).toBe(
      created.unit_price.amount + (REFUND_RULES.includesTopups ? pending.price.amount : 0),
    );
    // Settled: its price is neither credited back on its own nor refunded with the eSIM.
    const made = (await c.transactions()).slice(before);
    expect(made.filter((t) => t.source_id === pending.id)).toEqual([]);
    expect(made.map((t) => t.type)).toEqual(['refund', 'refund']);
  });

  test('the top-ups list: newest first, whatever their status, filtered by status, a page at a time', async () => {
    const c = await client();
    const iccid = await activeEsim(c);
    const made: string[] = [];
    for (const packageId of [SAMPLES.topupPackageId, SANDBOX.failingTopupPackageId, SANDBOX.pendingTopupPackageId]) {
      made.push((await c.topup(iccid, packageId)).id);
    }
    const first = await c.get(`/v1/esims/${iccid}/topups?limit=2`);
    expect((first.data as {id: string}[]).map((t) => t.id)).toEqual([made[2], made[1]]);
    const rest = await c.get(`/v1/esims/${iccid}/topups?limit=2&cursor=${String(first.next_cursor)}`);
    expect((rest.data as {id: string}[]).map((t) => t.id)).toEqual([made[0]]);
    expect(rest.has_more).toBe(false);
    const failed = (await c.get(`/v1/esims/${iccid}/topups?status=failed`)).data as {id: string}[];
    expect(failed.map((t) => t.id)).toEqual([made[1]]);
    expect((await c.call('GET', `/v1/esims/${SAMPLES.iccid}/topups`)).status).toBe(404);
  });

  test('cancelling an order refunds each eSIM as the refund rule says; refunded_total is then the total, never more', async () => {
    const c = await client();
    const created = await c.order(SAMPLES.packageId, 2);
    const first = created.esims[0]!.iccid;
    const applied = await c.topup(first, SAMPLES.topupPackageId);
    const refundedTopup = REFUND_RULES.includesTopups ? applied.price.amount : 0;
    const before = (await c.transactions()).length;
    const cancelled = c.ok(await c.call('POST', `/v1/orders/${created.id}/cancel`)) as {
      total: {amount: number};
      refunded_total: {amount: number};
    };
    expect(cancelled.refunded_total.amount).toBe(created.total.amount + refundedTopup);
    if (!REFUND_RULES.includesTopups)
      expect(cancelled.refunded_total.amount).toBeLessThanOrEqual(cancelled.total.amount);
    const made = (await c.transactions()).slice(before);
    expect(made.map((t) => t.amount.amount).sort((a, b) => a - b)).toEqual(
      [created.unit_price.amount, created.unit_price.amount + refundedTopup].sort((a, b) => a - b),
    );
  });
});

// Validity, widget caps, lists --------------------------------------------------------------------

test.describe('validity', () => {
  const topupPackage = PACKAGES.find((pkg) => pkg.id === SAMPLES.topupPackageId)!;

  // The model's rule (VALIDITY_RULES.topupSentence): a top-up's days run from when it is applied, or
  // from when the clock starts if it has not; expires_at takes the later end and never moves earlier.
  const samplePackage = PACKAGES.find((pkg) => pkg.id === SAMPLES.packageId)!;
  const later = (...timestamps: number[]) => new Date(Math.max(...timestamps)).toISOString().replace(/\.\d{3}Z$/, 'Z');

  test('a top-up adds its data, and its days run from when it is applied: a shorter one leaves expires_at', async () => {
    expect(topupPackage.validity_days).toBeLessThan(samplePackage.validity_days);
    const c = await client();
    const iccid = await activeEsim(c);
    const before = await c.esim(iccid);
    const topup = await c.topup(iccid, topupPackage.id);
    const after = await c.esim(iccid);
    expect(after.expires_at).toBe(
      later(Date.parse(before.expires_at!), Date.parse(topup.applied_at!) + topupPackage.validity_days * DAY),
    );
    expect(after.expires_at, 'the shorter top-up ends before the validity left').toBe(before.expires_at);
    expect((await c.get(`/v1/esims/${iccid}/usage`)).data_total_mb).toBe(SAMPLE_PACKAGE.dataMb + topupPackage.data_mb!);
  });

  test('a top-up that runs longer than the validity left moves expires_at to its own end', async () => {
    const c = await client();
    const iccid = await c.iccidOf(topupPackage.id);
    await c.simulate(iccid, 'activated');
    const topup = await c.topup(iccid, samplePackage.id);
    expect((await c.esim(iccid)).expires_at).toBe(
      later(Date.parse(topup.applied_at!) + samplePackage.validity_days * DAY),
    );
  });

  test('a top-up before the clock starts runs from when it starts, alongside the package’s own days', async () => {
    const c = await client();
    const iccid = await c.iccidOf();
    await c.topup(iccid, topupPackage.id);
    expect((await c.esim(iccid)).expires_at).toBeNull();
    const active = await c.simulate(iccid, 'activated');
    expect(Date.parse(active.expires_at!) - Date.parse(active.activated_at!)).toBe(
      Math.max(SAMPLE_PACKAGE.validityDays, topupPackage.validity_days) * DAY,
    );
  });

  test('the clock starts at install for on_install packages, at first attach for first_use ones', async () => {
    const c = await client();
    const onInstall = PACKAGES.find((pkg) => pkg.activation_policy === 'on_install')!;
    expect(onInstall, 'an on_install package in the sandbox catalogue').toBeDefined();
    const early = await c.iccidOf(onInstall.id);
    const installed = await c.simulate(early, 'installed');
    expect(installed.expires_at).not.toBeNull();
    // Activation does not restart it.
    expect((await c.simulate(early, 'activated')).expires_at).toBe(installed.expires_at);

    const late = await c.iccidOf();
    expect((await c.simulate(late, 'installed')).expires_at).toBeNull();
    const active = await c.simulate(late, 'activated');
    expect(Date.parse(active.expires_at!) - Date.parse(active.activated_at!)).toBe(SAMPLE_PACKAGE.validityDays * DAY);
  });

  test('an action that needs the validity clock takes an installed eSIM only once its clock runs (on_install packages)', async () => {
    const c = await client();
    const onInstall = PACKAGES.find((pkg) => pkg.activation_policy === 'on_install')!;
    const clockActions = Object.keys(SIMULATE_ACTIONS).filter((action) =>
      needsValidityClock(action as keyof typeof SIMULATE_ACTIONS),
    ) as (keyof typeof SIMULATE_ACTIONS)[];
    expect(clockActions.length, 'actions that need the clock').toBeGreaterThan(0);
    for (const action of clockActions) {
      const noClock = await c.iccidOf();
      await c.simulate(noClock, 'installed');
      const refused = await c.call('POST', `/v1/sandbox/esims/${noClock}/simulate`, {action});
      expectModelError(refused, 'invalid_state');
      expect(errorOf(refused).message, action).toContain('no validity clock');
      const running = await c.iccidOf(onInstall.id);
      await c.simulate(running, 'installed');
      expect(c.ok(await c.call('POST', `/v1/sandbox/esims/${running}/simulate`, {action})), action).toMatchObject({
        status: 'installed',
      });
    }
  });

  test('a suspended eSIM takes a simulation only if the status it had before does: one never installed cannot expire', async () => {
    expect(VALIDITY_RULES.readyExpires).toBe(false);
    const c = await client();
    for (const [action, rule] of Object.entries(SIMULATE_ACTIONS)) {
      const from: readonly string[] = rule.from;
      if (!from.includes('suspended')) continue;
      const iccid = await c.iccidOf();
      c.ok(await c.call('POST', `/v1/esims/${iccid}/suspend`));
      const answer = await c.call('POST', `/v1/sandbox/esims/${iccid}/simulate`, {action});
      if (from.includes('ready')) expect(answer.status, action).toBe(200);
      else {
        expectModelError(answer, 'invalid_state');
        // The message says why: the status it had before, and what the action needs, never "needs … suspended".
        const message = errorOf(answer).message;
        expect(message, action).toContain('was ready');
        expect(message, action).not.toMatch(/needs [^.]*\bsuspended\b(?! from)/);
        for (const status of from.filter((candidate) => candidate !== 'suspended')) {
          expect(message, action).toContain(status);
        }
      }
      expect((await c.esim(iccid)).status, action).toBe('suspended');
    }
  });

  test('suspension does not pause the clock: expires_at stays, and a suspended eSIM expires', async () => {
    const c = await client();
    const iccid = await activeEsim(c);
    const before = await c.esim(iccid);
    expect(c.ok(await c.call('POST', `/v1/esims/${iccid}/suspend`))).toMatchObject({
      status: 'suspended',
      expires_at: before.expires_at,
    });
    expect(await c.simulate(iccid, 'expiring_soon')).toMatchObject({status: 'suspended'});
    expect(await c.simulate(iccid, 'expire')).toMatchObject({status: 'expired'});
    expectModelError(await c.call('POST', `/v1/esims/${iccid}/resume`), 'invalid_state');
  });
});

test.describe('widget caps', () => {
  const session = (c: Client, body: Record<string, unknown>) =>
    c.call('POST', '/v1/widget-sessions', {mode: 'store', allowed_origins: ['https://shop.example.org'], ...body});

  test('an activate or manage session for a refunded or expired eSIM is 422 invalid_state; a store session names no eSIM', async () => {
    const c = await client();
    const refunded = await c.iccidOf();
    c.ok(await c.call('POST', '/v1/refunds', {iccid: refunded}), 201);
    const expired = await c.iccidOf();
    c.ok(await c.call('POST', `/v1/sandbox/esims/${expired}/simulate`, {action: 'activated'}));
    c.ok(await c.call('POST', `/v1/sandbox/esims/${expired}/simulate`, {action: 'expire'}));
    for (const mode of ['activate', 'manage']) {
      for (const iccid of [refunded, expired]) {
        expectModelError(await session(c, {mode, iccid, customer_reference: 'gone-1'}), 'invalid_state');
      }
      c.ok(await session(c, {mode, iccid: await c.iccidOf(), customer_reference: 'gone-1'}), 201);
    }
  });

  test('allowed_origins takes origins only: a page URL or a trailing slash is refused, naming the field', async () => {
    const c = await client();
    c.ok(await session(c, {customer_reference: 'origins-1', allowed_origins: ['http://localhost:3000']}), 201);
    for (const notAnOrigin of ['https://shop.example.org/checkout?x=1', 'https://shop.example.org/', '*']) {
      const refused = await session(c, {customer_reference: 'origins-1', allowed_origins: [notAnOrigin]});
      expectInvalid(refused, /^allowed_origins/, notAnOrigin);
    }
  });

  test('caps count the orders for the customer_reference and the top-ups of the eSIM, across sessions and the API', async () => {
    const c = await client();
    const reference = 'traveller-42';
    expect(c.ok(await session(c, {customer_reference: reference, max_orders: 2}), 201)).toMatchObject({
      remaining_orders: 2,
    });
    const iccid = (await c.order(SAMPLES.packageId, 1, {customer_reference: reference})).esims[0]!.iccid;
    // A new session (the traveller reloaded) gets what remains.
    expect(c.ok(await session(c, {customer_reference: reference, max_orders: 2}), 201)).toMatchObject({
      remaining_orders: 1,
    });
    // Top-ups count per eSIM, whatever reference a manage session names: a reload or another booking's
    // reference cannot buy its top-ups again.
    const manage = (customer_reference: string) =>
      session(c, {mode: 'manage', iccid, customer_reference, max_topups: 1});
    expect(c.ok(await manage(reference), 201)).toMatchObject({remaining_topups: 1});
    await c.topup(iccid, SAMPLES.topupPackageId);
    expect(c.ok(await manage(reference), 201)).toMatchObject({remaining_topups: 0});
    expect(c.ok(await manage('another-booking'), 201)).toMatchObject({remaining_topups: 0});
    const unreferencedOrder = (await c.order(SAMPLES.packageId, 1)).esims[0]!.iccid;
    await c.topup(unreferencedOrder, SAMPLES.topupPackageId);
    expect(
      c.ok(await session(c, {mode: 'manage', iccid: unreferencedOrder, customer_reference: 'x', max_topups: 1}), 201),
    ).toMatchObject({remaining_topups: 0});
    // The defaults, from the model: max_orders, and no top-up unless the session allows some.
    expect(c.ok(await session(c, {customer_reference: reference}), 201)).toMatchObject({
      remaining_orders: Math.max(0, WIDGET_CAPS.maxOrders.default - 1),
      remaining_topups: WIDGET_CAPS.maxTopups.default,
    });
    expect(c.ok(await session(c, {customer_reference: 'someone-else', max_orders: 2}), 201)).toMatchObject({
      remaining_orders: 2,
    });
    // Without the reference the caps count against, there is no session: nothing would be capped.
    const unreferenced = await session(c, {max_orders: 1});
    expect(unreferenced.status).toBe(400);
    expect((unreferenced.body as {error: {code: string; param: string}}).error).toMatchObject({
      code: 'validation_failed',
      param: WIDGET_CAPS.countsAgainst.orders,
    });
  });

  test(`the caps count orders ${WIDGET_CAPS.counted.orders.join('/')} (cancelled too, not failed) and top-ups ${WIDGET_CAPS.counted.topups.join('/')}, as the model says`, async () => {
    expect(WIDGET_CAPS.counted.orders).toContain('cancelled');
    expect(WIDGET_CAPS.counted.orders).not.toContain('failed');
    expect(WIDGET_CAPS.counted.topups).not.toContain('failed');
    const c = await client();
    const reference = 'counted-booking';
    const cap = 10;
    const cancelled = await c.order(SAMPLES.packageId, 1, {customer_reference: reference});
    const cancelledNow = c.ok(await c.call('POST', `/v1/orders/${cancelled.id}/cancel`)) as {status: string};
    const failed = await c.order(SANDBOX.slowFailingPackageId, 1, {customer_reference: reference});
    const failedNow = (await c.get(`/v1/orders/${failed.id}`)) as {status: string};
    const processing = await c.order(SANDBOX.slowPackageId, 1, {customer_reference: reference});
    const completed = await c.order(SAMPLES.packageId, 1, {customer_reference: reference});
    const iccid = completed.esims[0]!.iccid;
    // Their statuses as answered: reading the processing order, alone or in a list, would complete it.
    const orders = [cancelledNow, failedNow, processing, completed];
    expect(orders.map((order) => order.status).sort()).toEqual(['cancelled', 'completed', 'failed', 'processing']);
    const countedOrders = orders.filter((order) =>
      (WIDGET_CAPS.counted.orders as readonly string[]).includes(order.status),
    ).length;
    expect(c.ok(await session(c, {customer_reference: reference, max_orders: cap}), 201)).toMatchObject({
      remaining_orders: cap - countedOrders,
    });

    // Their statuses as answered: listing the eSIM's top-ups would apply the pending one.
    const topups: {status: string}[] = [];
    for (const package_id of [SANDBOX.pendingTopupPackageId, SANDBOX.failingTopupPackageId]) {
      topups.push(await c.topup(iccid, package_id));
    }
    const countedTopups = topups.filter((topup) =>
      (WIDGET_CAPS.counted.topups as readonly string[]).includes(topup.status),
    ).length;
    expect(topups.map((topup) => topup.status).sort()).toEqual(['failed', 'pending']);
    expect(
      c.ok(await session(c, {mode: 'manage', iccid, customer_reference: reference, max_topups: cap}), 201),
    ).toMatchObject({remaining_topups: cap - countedTopups});
  });

  test('only the widget enforces the caps: the API accepts an order and a top-up past them', async () => {
    const c = await client();
    const reference = 'traveller-43';
    const caps = {customer_reference: reference, max_orders: 1, max_topups: 0};
    const first = await c.order(SAMPLES.packageId, 1, {customer_reference: reference});
    expect(c.ok(await session(c, caps), 201)).toMatchObject({remaining_orders: 0, remaining_topups: 0});
    const pastOrderCap = await c.call('POST', '/v1/orders', {
      package_id: SAMPLES.packageId,
      customer_reference: reference,
    });
    const pastTopupCap = await c.call('POST', `/v1/esims/${first.esims[0]!.iccid}/topups`, {
      package_id: SAMPLES.topupPackageId,
    });
    const accepted = !WIDGET_CAPS.enforcedByApi;
    expect(pastOrderCap.status === 201, JSON.stringify(pastOrderCap.body)).toBe(accepted);
    expect(pastTopupCap.status === 201, JSON.stringify(pastTopupCap.body)).toBe(accepted);
    // What stops a backend's own duplicate is its Idempotency-Key: the same key answers the first order.
    const key = 'widget-caps-retry';
    const body = {package_id: SAMPLES.packageId, customer_reference: reference};
    const placed = c.ok(await c.call('POST', '/v1/orders', body, {key}), 201);
    const resent = await c.call('POST', '/v1/orders', body, {key});
    expect(c.ok(resent, 201).id).toBe(placed.id);
  });
});

test.describe('lists, usage and updates', () => {
  const triggers: string[] = [
    SANDBOX.failingPackageId,
    SANDBOX.unavailablePackageId,
    SANDBOX.slowPackageId,
    SANDBOX.slowFailingPackageId,
    SANDBOX.failingTopupPackageId,
    SANDBOX.pendingTopupPackageId,
    SANDBOX.pendingFailingTopupPackageId,
  ];

  test('trigger packages are never in the catalogue; the pending, the pending failing, then the failing top-up end the topup-packages of an eSIM that takes top-ups, and of no other', async () => {
    const c = await client();
    const listed = ((await c.get(`/v1/packages?limit=${LIMITS.pageSizeMax}`)).data as {id: string}[]).map(
      (pkg) => pkg.id,
    );
    expect(listed.filter((id) => triggers.includes(id))).toEqual([]);
    const topupsOf = async (iccid: string) =>
      (
        (await c.get(`/v1/esims/${iccid}/topup-packages?limit=${LIMITS.pageSizeMax}`)).data as {
          id: string;
        }[]
      ).map((candidate) => candidate.id);
    const topups = await topupsOf(await c.iccidOf(SAMPLES.packageId));
    expect(topups.at(-1)).toBe(SANDBOX.failingTopupPackageId);
    expect(topups.filter((id) => triggers.includes(id))).toEqual([
      SANDBOX.pendingTopupPackageId,
      SANDBOX.pendingFailingTopupPackageId,
      SANDBOX.failingTopupPackageId,
    ]);
    const noTopups = await c.iccidOf(PACKAGES.find((candidate) => !candidate.topup_available)!.id);
    expect(await topupsOf(noTopups)).toEqual([]);
    expectModelError(
      await c.call('POST', `/v1/esims/${noTopups}/topups`, {package_id: SANDBOX.pendingTopupPackageId}),
      'topup_not_allowed',
    );
  });

  test('page= is retired: 400 validation_failed naming page, and the contract no longer offers it', async () => {
    const c = await client();
    for (const list of ['/v1/orders', '/v1/esims']) expectInvalid(await c.call('GET', `${list}?page=2`), 'page', list);
    expect(
      operationsWith((parameter) => parameter.name === 'page').map(({method, path}) => `${method} ${path}`),
    ).toEqual([]);
  });

  test('every list refuses limit=0 with 400 validation_failed naming limit (the contract documents it: afterEach)', async () => {
    const c = await client();
    const iccid = await c.iccidOf();
    const lists = operationsWith((parameter) => parameter.name === 'limit').filter(({method}) => method === 'GET');
    expect(lists.length).toBeGreaterThan(5);
    for (const {path: apiPath} of lists) {
      expectInvalid(await c.call('GET', `${apiPath.replace('{iccid}', iccid)}?limit=0`), 'limit', apiPath);
    }
  });

  test('every operation refuses a malformed id in its path with 400 validation_failed naming it (the contract documents it: afterEach)', async () => {
    const c = await client();
    const patterned = (parameter: OpenApiParameter) => parameter.in === 'path' && !!patternOf(parameter);
    const operations = operationsWith(patterned).filter(({path: apiPath}) => apiPath.startsWith('/v1/'));
    expect(operations.length).toBeGreaterThan(5);
    for (const {method, path: apiPath, operation} of operations) {
      const {name} = parametersOf(operation).find(patterned)!;
      // A space matches none of the patterns (ids are letters, digits, `_` and `-`); the operation's own example
      // body, if it takes one, leaves the id the only thing wrong.
      const answer = await c.call(method, apiPath.replace(`{${name}}`, 'not%20an%20id'), exampleBody(operation));
      expectInvalid(answer, name, `${method} ${apiPath}`);
    }
  });

  test('an operation without a request body ignores one sent anyway: malformed JSON never answers invalid_request there', async () => {
    const c = await client();
    const bodiless = listOperations(document).filter(
      ({method, path: apiPath, operation}) =>
        method !== 'GET' &&
        apiPath.startsWith('/v1/') &&
        !operationFacts(document, method, apiPath, operation).takesBody,
    );
    expect(bodiless.length).toBeGreaterThan(0);
    for (const {method, path: apiPath, operation} of bodiless) {
      const concretePath = concretePathOf(apiPath, operation);
      const answer = await c.call(method, concretePath, undefined, {key: newKey(), raw: '{"broken": '});
      expect((answer.body.error as {code?: string} | undefined)?.code, `${method} ${apiPath}`).not.toBe(
        'invalid_request',
      );
    }
  });

  test('every operation that takes an Idempotency-Key refuses a malformed key (400) and a key used for another request (409)', async () => {
    const c = await client();
    const usedKey = newKey();
    c.ok(await c.call('POST', '/v1/sandbox/balance', {amount: 123_456}, {key: usedKey}));
    const tooLongKey = 'k'.repeat(LIMITS.idempotencyKeyMaxLength + 1);
    const keyed = operationsWith((parameter) => parameter.name === 'Idempotency-Key');
    expect(keyed.length).toBeGreaterThan(10);
    for (const {method, path: apiPath, operation} of keyed) {
      // The contract's own examples: a valid request, so only the key can be refused.
      const concretePath = concretePathOf(apiPath, operation);
      const body = exampleBody(operation);
      expectModelError(await c.call(method, concretePath, body, {key: usedKey}), 'idempotency_key_reused');
      expectInvalid(
        await c.call(method, concretePath, body, {key: tooLongKey}),
        'Idempotency-Key',
        `${method} ${apiPath}`,
      );
    }
  });

  type Listed = Record<string, unknown>;

  /** Every item of a list, `limit` at a time, following next_cursor; `afterFirstPage` runs between the first two pages. */
  async function walk(c: Client, list: string, limit: number, afterFirstPage?: () => Promise<unknown>) {
    const items: Listed[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = `${list.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await c.get(`${list}${query}`);
      items.push(...(page.data as Listed[]));
      cursor = page.has_more ? (page.next_cursor as string) : null;
      if (++pages === 1) await afterFirstPage?.();
    } while (cursor && pages < 100);
    return items;
  }
  const onePage = async (c: Client, list: string) =>
    (await c.get(`${list}${list.includes('?') ? '&' : '?'}limit=${LIMITS.pageSizeMax}`)).data as Listed[];
  const idOf = (item: Listed) => String(item.id ?? item.iccid ?? item.code);

  test('a cursor names the last item returned: an item created during a walk is not listed twice, and none is skipped', async () => {
    const c = await client();
    for (let index = 0; index < 4; index++) await c.order();
    for (const list of ['/v1/orders', '/v1/esims', '/v1/balance/transactions', '/v1/events']) {
      const before = (await onePage(c, list)).map(idOf);
      expect(before.length, list).toBeGreaterThan(2);
      // The new order is newer than every item listed: it belongs to a new walk.
      const walked = (await walk(c, list, 2, () => c.order())).map(idOf);
      expect(walked, list).toEqual(before);
    }
  });

  test('an item that stops matching the filter after its page does not make the next page skip one', async () => {
    const c = await client();
    for (let index = 0; index < 4; index++) await c.order();
    const ready = (await onePage(c, '/v1/esims?status=ready')).map(idOf);
    const walked = await walk(c, '/v1/esims?status=ready', 2, () => c.simulate(ready[1]!, 'activated'));
    expect(walked.map(idOf)).toEqual(ready);
  });

  test('the catalogue, destinations and top-up packages list the same order in small pages as in the largest', async () => {
    const c = await client();
    const iccid = await c.iccidOf();
    const wholes: Record<string, string[]> = {};
    for (const list of [
      '/v1/packages',
      '/v1/packages?country=JP',
      '/v1/destinations',
      `/v1/esims/${iccid}/topup-packages`,
    ]) {
      const whole = (wholes[list] = (await walk(c, list, LIMITS.pageSizeMax)).map(idOf));
      // Small pages, but no more than 20 of them a list: the walks stay within the credential's rate limit.
      const small = Math.max(2, Math.ceil(whole.length / 20));
      expect(whole.length, list).toBeGreaterThan(small);
      expect((await walk(c, list, small)).map(idOf), list).toEqual(whole);
    }
    // The catalogue is every package of the sandbox's but the triggers; the country filter keeps exactly its
    // packages for that country.
    const catalogue = PACKAGES.filter((pkg) => !triggers.includes(pkg.id));
    expect([...wholes['/v1/packages']!].sort()).toEqual(catalogue.map((pkg) => pkg.id).sort());
    const japanese = new Set(catalogue.filter((pkg) => pkg.countries.includes('JP')).map((pkg) => pkg.id));
    expect(wholes['/v1/packages?country=JP']).toEqual(wholes['/v1/packages']!.filter((id) => japanese.has(id)));
  });

  test('a cursor this API did not return is 400 validation_failed naming cursor', async () => {
    const c = await client();
    const notJson = `c_${Buffer.from('not json').toString('base64url')}`;
    const ordersCursor = `c_${Buffer.from(JSON.stringify({id: 'ord_01JB7Z3KQ8'})).toString('base64url')}`;
    for (const [list, cursor] of [
      ['/v1/orders', 'garbage'],
      ['/v1/orders', notJson],
      ['/v1/orders', `c_${Buffer.from('[]').toString('base64url')}`],
      // A list in a fixed order knows every item a cursor can name.
      ['/v1/destinations', ordersCursor],
      ['/v1/packages', ordersCursor],
    ] as const) {
      const answer = await c.call('GET', `${list}?cursor=${cursor}`);
      expectInvalid(answer, 'cursor', `${list} ${cursor}`);
    }
  });

  test('a test event of a type that does not exist is 400 validation_failed naming type', async () => {
    const c = await client();
    const answer = await c.call('POST', `/v1/webhook-endpoints/${String(c.endpoint.id)}/test`, {
      type: 'esim.teleported',
    });
    expectInvalid(answer, 'type');
  });

  test('a usage 429 carries the ICCID bucket’s own rate-limit headers', async () => {
    const c = await client();
    const iccid = await c.iccidOf();
    await c.get(`/v1/esims/${iccid}/usage`);
    const limited = await c.call('GET', `/v1/esims/${iccid}/usage`);
    expectModelError(limited, 'rate_limited');
    expect(limited.headers.get('x-ratelimit-limit')).toBe(String(LIMITS.usageCallsPerMinutePerIccid));
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe(Number(limited.headers.get('retry-after')));
  });

  test('PATCH replaces metadata as a whole; a field not sent keeps its value', async () => {
    const c = await client();
    const iccid = await c.iccidOf();
    c.ok(await c.call('PATCH', `/v1/esims/${iccid}`, {label: 'Anna', metadata: {trip: 'TYO', seat: '12A'}}));
    expect(c.ok(await c.call('PATCH', `/v1/esims/${iccid}`, {metadata: {trip: 'OSA'}}))).toMatchObject({
      label: 'Anna',
      metadata: {trip: 'OSA'},
    });
    expect((await c.get(`/v1/esims/${iccid}`)).metadata as object).toEqual({trip: 'OSA'});
  });
});

test.describe('the contract states the model', () => {
  test('error codes, retry policies, simulate actions, action operations, balance transaction types, widget caps and top-up validity', () => {
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
    const request = sessionRequest.properties;
    expect(request.max_orders.description).toContain(WIDGET_CAPS.sentence);
    expect(request.max_orders.description).toContain(WIDGET_CAPS.countedSentence);
    expect(request.max_orders.default).toBe(WIDGET_CAPS.maxOrders.default);
    expect(request.max_topups.default).toBe(WIDGET_CAPS.maxTopups.default);
    // The caps count against it, so a session without it would cap nothing.
    expect(sessionRequest.required).toContain(WIDGET_CAPS.countsAgainst.orders);
    const createTopup = document.paths['/v1/esims/{iccid}/topups']!.post as {description: string};
    expect(createTopup.description).toContain(VALIDITY_RULES.topupSentence);
    const createRefund = document.paths['/v1/refunds']!.post as {description: string};
    expect(createRefund.description).toContain(REFUND_RULES.sentence);
    const cancelOrder = document.paths['/v1/orders/{order_id}/cancel']!.post as {description: string};
    for (const undo of [createRefund, cancelOrder]) {
      expect(undo.description).toContain(REFUND_RULES.pendingTopupSentence);
      expect(operationScopes(document, undo as unknown as OpenApiOperation)).toContain(REFUND_RULES.scope);
    }
    expect(cancelOrder.description).toContain(REFUND_RULES.scopeSentence);
    // Every API operation documents the shared server errors a client retries (the token endpoint has its own format).
    const serverStatuses = [
      ...new Set(ERROR_CODES.filter((rule) => rule.status >= 500).map((rule) => String(rule.status))),
    ];
    // An operation that takes an Idempotency-Key can refuse a malformed key (400) and a key that is reused or
    // still running (409); a list can refuse its `limit` or `cursor` (400), and a path parameter with a pattern a
    // malformed id (400).
    const validationStatus = String(errorRule('validation_failed').status);
    const idempotencyStatuses = [
      validationStatus,
      ...new Set(IDEMPOTENCY.refusalCodes.map((code) => String(errorRule(code).status))),
    ];
    for (const {method, path: apiPath, operation} of listOperations(document)) {
      if (!apiPath.startsWith('/v1/')) continue;
      const documented = Object.keys(operation.responses ?? {});
      const parameters = (operation.parameters ?? []).map((parameter) =>
        resolveRef<OpenApiParameter>(document, parameter),
      );
      const takesKey = parameters.some(
        (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
      );
      const isList = parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'limit');
      const hasPatternedPath = parameters.some((parameter) => parameter.in === 'path' && patternOf(parameter));
      const shared = [
        ...serverStatuses,
        ...(takesKey ? idempotencyStatuses : []),
        ...(isList || hasPatternedPath ? [validationStatus] : []),
      ];
      expect(
        shared.filter((status) => !documented.includes(status)),
        `${method} ${apiPath}`,
      ).toEqual([]);
    }
    // The event catalogue's summaries: when the clock starts (both policies), and what a failed order charges.
    const examples = (
      document.webhooks as {
        event: {post: {requestBody: {content: {'application/json': {examples: Record<string, {summary: string}>}}}}};
      }
    ).event.post.requestBody.content['application/json'].examples;
    for (const policy of Object.keys(CLOCK_STARTS)) expect(examples['esim.activated']!.summary).toContain(policy);
    const failBalance = ACTIONS.find((candidate) => candidate.id === 'order.fail')!.balance;
    for (const movement of failBalance) expect(examples['order.failed']!.summary).toContain(movement.type);
    // What is stored under a key (2xx only: no 4xx either) and what a replay is, as the model says.
    const keyParameter = (document.components as {parameters: Record<string, {description: string}>}).parameters
      .IdempotencyKeyRequired!;
    for (const description of [keyParameter.description, document.info.description as string]) {
      expect(description).toContain(IDEMPOTENCY.storedSentence);
      expect(description).toContain(IDEMPOTENCY.replaySentence);
      expect(description).toContain(IDEMPOTENCY.sameRequestSentence);
    }
    // How a cursor walks a list, where the contract describes pagination.
    const cursorParameter = (document.components as {parameters: Record<string, {description: string}>}).parameters
      .Cursor!;
    for (const description of [cursorParameter.description, document.info.description as string]) {
      expect(description).toContain(PAGINATION.cursorSentence);
    }
  });
});
