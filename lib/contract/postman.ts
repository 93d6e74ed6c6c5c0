/** Postman collection and environments from the OpenAPI document: openapi-to-postmanv2, then what it cannot do (tag order, auth, chaining, variables). */
import {createHash} from 'node:crypto';

import {convert as convertOpenApi} from 'openapi-to-postmanv2';

import {SANDBOX} from '../../src/constants/api';
import {
  ESIM_TRANSITIONS,
  IDEMPOTENCY,
  RETRY_POLICIES,
  SIMULATE_ACTIONS,
  STATE_RULES,
  needsProfile,
  needsValidityClock,
  TOKEN_DROPPING_CODES,
  errorRule,
  type RetryPolicy,
} from '../../src/constants/behaviour';
import {postmanNames, type ApiFacts, type EnvironmentKey} from './facts';
import {
  listOperations,
  resolveRef,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
} from './openapi';

const SCHEMA_V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

export const PATH_VARIABLES: Record<string, string> = {
  package_id: 'packageId',
  order_id: 'orderId',
  iccid: 'iccid',
  id: 'webhookEndpointId',
};

export const ENVIRONMENT_VARIABLES = [
  'baseUrl',
  'tokenUrl',
  'clientId',
  'clientSecret',
  'accessToken',
  'accessTokenExpiresAt',
  'packageId',
  'orderId',
  'iccid',
  'topupPackageId',
  'cancelOrderId',
  'refundIccid',
  'simulateAction',
  'idempotencyKey',
  'webhookEndpointId',
  'widgetSessionId',
] as const;

export type EnvironmentVariable = (typeof ENVIRONMENT_VARIABLES)[number];

/** Environment files have no description field, so the docs page's variable table reads these. */
export const VARIABLE_DESCRIPTIONS: Record<EnvironmentVariable, string> = {
  baseUrl: 'API base URL, version included; every API request starts with it',
  tokenUrl: 'OAuth 2.0 token URL',
  clientId: 'Your client ID',
  clientSecret: 'Your client secret; a secret-type variable, masked on screen',
  accessToken: 'The current bearer token, which the collection’s authorization sends',
  accessTokenExpiresAt: 'When that token expires, in milliseconds since the epoch',
  packageId: 'The package to order (and to read); change it to order another one',
  orderId: 'The last order created',
  iccid: 'The ICCID of the last order’s first eSIM',
  topupPackageId: 'The first top-up package the eSIM `{{iccid}}` accepts, which the top-up orders',
  cancelOrderId:
    'The order the cancel request cancels. In the sandbox, its script creates one and keeps it until the cancel succeeds or can never succeed, so the eSIM `{{iccid}}` stays usable; on Live, set it yourself',
  refundIccid:
    'The eSIM the refund request refunds. In the sandbox, its script orders one and keeps it until the refund succeeds or can never succeed, for the same reason; on Live, set it yourself',
  simulateAction: 'The next sandbox simulation `action` valid for the eSIM `{{iccid}}`; each success moves it on',
  idempotencyKey:
    'The `Idempotency-Key` header of the current POST: the key that request keeps until an answer is stored under it',
  webhookEndpointId: 'The last webhook endpoint created',
  widgetSessionId: 'The last widget session created',
};

const BODY_VARIABLES: Record<string, Record<string, EnvironmentVariable>> = {
  createOrder: {package_id: 'packageId'},
  // A top-up package depends on the eSIM's package: the one listed for it, never a fixed id.
  createTopup: {package_id: 'topupPackageId'},
  createRefund: {iccid: 'refundIccid'},
  simulateEsimEvent: {action: 'simulateAction'},
};

/**
 * Body fields whose example would break the next pass of the Runner: setting the sandbox balance
 * to the example's few units makes the next order fail, so it sets the starting balance back.
 */
const BODY_VALUES: Record<string, Record<string, unknown>> = {
  setSandboxBalance: {amount: Math.round(Number(SANDBOX.startingBalance.replace(/,/g, '')) * 100)},
};

/** Path variables that differ from PATH_VARIABLES for one operation. */
const PATH_VARIABLE_OVERRIDES: Record<string, Record<string, EnvironmentVariable>> = {
  cancelOrder: {order_id: 'cancelOrderId'},
};

/**
 * Requests that undo an order work on an order of their own, created by their pre-request script
 * with `{{packageId}}`: cancelling or refunding `{{orderId}}` would leave the eSIM that the later
 * folders use cancelled, and the second of the two would find nothing left to undo.
 */
const FRESH_ORDER: Record<string, {variable: EnvironmentVariable; expression: string}> = {
  cancelOrder: {variable: 'cancelOrderId', expression: 'json.id'},
  createRefund: {variable: 'refundIccid', expression: 'json.esims[0].iccid'},
};

/** The status a new eSIM has once its order completes, from the model. */
const NEW_ESIM_STATUS = ESIM_TRANSITIONS.find((transition) => transition.from.includes('provisioning'))!.to;

/** The first simulate action, in the sandbox's order, that the status accepts. */
export function firstSimulateAction(status: string): string | undefined {
  return SANDBOX.simulateActions.find((action) =>
    (SIMULATE_ACTIONS[action].from as readonly string[]).includes(status),
  );
}

/** What `{{simulateAction}}` starts at: the first action valid for a new eSIM. */
export const INITIAL_SIMULATE_ACTION = firstSimulateAction(NEW_ESIM_STATUS)!;

/** Not `packageId`: it is the reader's choice (the failure path sets it), which listing the catalogue must not overwrite. */
const STORED_FROM_RESPONSE: Record<string, Partial<Record<EnvironmentVariable, string>>> = {
  createOrder: {orderId: 'json.id', iccid: 'json.esims[0].iccid'},
  listTopupPackages: {topupPackageId: 'json.data[0].id'},
  createWebhookEndpoint: {webhookEndpointId: 'json.id'},
  createWidgetSession: {widgetSessionId: 'json.id'},
};

/** The docs quote it. */
export const STATUS_TEST_NAME = 'responds with 2xx';

/** The runs the "Test in Postman" page walks through; one definition so the page and its test agree. */
export const POSTMAN_RUNS = {
  happyPath: {tags: ['Auth', 'Catalogue', 'Orders', 'eSIMs & activation', 'Usage & top-ups']},
  /** Run again with `variable` set to the sandbox's always-failing package. */
  failurePath: {tag: 'Orders', operationId: 'createOrder', variable: 'packageId'},
} as const satisfies {
  happyPath: {tags: readonly string[]};
  failurePath: {tag: string; operationId: string; variable: EnvironmentVariable};
};

export type PostmanUrl = {
  raw?: string;
  host?: string[];
  path?: string[];
  query?: {key: string; value?: string; disabled?: boolean; description?: string}[];
  variable?: {key: string; value?: string; [key: string]: unknown}[];
};
type PostmanRequest = {
  method: string;
  url: PostmanUrl;
  header?: {key: string; value: string; disabled?: boolean; description?: string}[];
  body?: {
    mode: string;
    urlencoded?: {key: string; value: string; disabled?: boolean; description?: string}[];
    [key: string]: unknown;
  };
  auth?: unknown;
  [key: string]: unknown;
};
export type PostmanItem = {
  id?: string;
  name: string;
  request?: PostmanRequest;
  response?: {originalRequest?: PostmanRequest; [key: string]: unknown}[];
  item?: PostmanItem[];
  event?: PostmanEvent[];
  [key: string]: unknown;
};
export type PostmanEvent = {listen: 'prerequest' | 'test'; script: {type: 'text/javascript'; exec: string[]}};

export type PostmanCollection = {
  info: {_postman_id: string; name: string; description?: unknown; schema: string};
  item: PostmanItem[];
  auth: unknown;
  event: PostmanEvent[];
  variable: unknown[];
};

export type PostmanEnvironment = {
  id: string;
  name: string;
  values: {key: string; value: string; type: 'default' | 'secret'; enabled: boolean}[];
  _postman_variable_scope: 'environment';
};

/** Stable, so two builds produce the same files. */
function stableId(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function script(listen: PostmanEvent['listen'], code: string): PostmanEvent {
  return {listen, script: {type: 'text/javascript', exec: code.trim().split('\n')}};
}

/** A request whose token could not be got is not sent (it would answer 401): its test says why. */
export const TOKEN_TEST_NAME = 'is sent once a token is got';

export function tokenPreRequestScript(facts: ApiFacts): string {
  return `
// Gets a token with the client credentials when there is none or it expires within ${facts.LIMITS.tokenRefreshLeadSeconds} s.
const refreshLeadMs = ${facts.LIMITS.tokenRefreshLeadSeconds} * 1000;
const isTokenRequest = pm.request.auth && pm.request.auth.type === 'noauth';
const expiresAt = Number(pm.environment.get('accessTokenExpiresAt') || 0);
if (!isTokenRequest && (!pm.environment.get('accessToken') || expiresAt - Date.now() < refreshLeadMs)) {
  pm.sendRequest({
    url: pm.variables.replaceIn('{{tokenUrl}}'),
    method: 'POST',
    header: {'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json'},
    body: {
      mode: 'urlencoded',
      urlencoded: [
        {key: 'grant_type', value: 'client_credentials'},
        {key: 'client_id', value: pm.variables.replaceIn('{{clientId}}')},
        {key: 'client_secret', value: pm.variables.replaceIn('{{clientSecret}}')},
      ],
    },
  }, (error, response) => {
    if (error || response.code !== 200) {
      // Sent without a token it would only answer 401: say why instead (after a 429, how long to wait).
      const wait = response && response.headers.get('Retry-After');
      const reason = error ? String(error) : \`\${response.code} \${response.text()}\`;
      pm.test('${TOKEN_TEST_NAME}', () =>
        pm.expect.fail(\`Not sent: the token request failed: \${reason}\${wait ? \`; send again in \${wait} s\` : ''}\`),
      );
      pm.execution.skipRequest();
      return;
    }
    const token = response.json();
    pm.environment.set('accessToken', token.access_token);
    pm.environment.set('accessTokenExpiresAt', Date.now() + token.expires_in * 1000);
  });
}
${idempotencyKeyPreRequestLines()}`;
}

/** The collection variable that holds a request's Idempotency-Key until an answer is stored under it. */
export const IDEMPOTENCY_KEY_VARIABLE_PREFIX = 'idempotencyKey: ';

/**
 * A POST keeps its Idempotency-Key until the API stores an answer under it: resending after a lost
 * answer, a 5xx or a 429 sends the same key, so the API replays what it did instead of doing it twice
 * (on Live, a second order). Once an answer is stored, a 2xx or a 4xx error alike, the same key would
 * only replay it, so the test script below releases the key and the next send is a new request.
 */
function idempotencyKeyPreRequestLines(): string {
  return `// Each POST keeps its Idempotency-Key until an answer is stored under it, so sending it again
// after a lost answer, a 5xx or a 429 replays the first result instead of buying twice.
if (pm.request.method === 'POST') {
  const keyVariable = '${IDEMPOTENCY_KEY_VARIABLE_PREFIX}' + pm.info.requestName;
  if (!pm.collectionVariables.get(keyVariable)) {
    pm.collectionVariables.set(keyVariable, pm.variables.replaceIn('{{$guid}}'));
  }
  pm.environment.set('idempotencyKey', pm.collectionVariables.get(keyVariable));
}`;
}

/**
 * The error whose answer says the kept key belongs to another body: it is not stored, but the
 * changed request is a new one, so the script releases the key and the next send gets a fresh one.
 */
const KEY_OF_ANOTHER_BODY = errorRule('idempotency_key_reused').code;

/** A script function: whether an answer releases the key it was sent with (stored under it, or the key is another body's). */
function keyReleaseFunction(): string {
  return `function releasesKey(response) {
  const unstored = ${JSON.stringify(IDEMPOTENCY.unstored)};
  let errorCode;
  try {
    errorCode = (response.json().error || {}).code;
  } catch (notJson) {
    // No JSON body: no error code to read.
  }
  const stored =
    !unstored.statuses.includes(response.code) && response.code < unstored.fromStatus && !unstored.codes.includes(errorCode);
  return stored || errorCode === '${KEY_OF_ANOTHER_BODY}';
}`;
}

function idempotencyKeyTestLines(): string {
  return `
// Releases this POST's Idempotency-Key once an answer is stored under it (a 2xx, or a 4xx error:
// the same key would replay it), or when the key belongs to another body (${KEY_OF_ANOTHER_BODY}).
${keyReleaseFunction()}
if (pm.request.method === 'POST' && pm.response && releasesKey(pm.response)) {
  pm.collectionVariables.unset('${IDEMPOTENCY_KEY_VARIABLE_PREFIX}' + pm.info.requestName);
}`;
}

/** What the status test appends for each retry policy an error answer carries (`error.retry`), from the model. */
export const RETRY_ADVICE: Record<string, string> = Object.fromEntries(
  Object.entries(RETRY_POLICIES).map(([policy, {label}]) => [policy, label]),
);

export function statusTestScript(): string {
  return `
// Every request expects a 2xx answer; otherwise the failure names the status and the error code,
// and what the answer's \`retry\` policy says to do (the API decides it; this script only reads it).
const retryAdvice = ${JSON.stringify(RETRY_ADVICE)};
pm.test('${STATUS_TEST_NAME}', () => {
  if (pm.response.code >= 300) {
    let body = {};
    try {
      body = pm.response.json() || {};
    } catch (notJson) {
      // No JSON body: the status line says it all.
    }
    // OAuth errors are {error, error_description}; API errors are {error: {code, message}}.
    const error = typeof body.error === 'string' ? {code: body.error, message: body.error_description} : body.error || {};
    const retry = retryAdvice[error.retry] ? \` (retry: \${retryAdvice[error.retry]})\` : '';
    pm.expect.fail(\`\${pm.response.code} \${error.code || pm.response.status}: \${error.message || pm.response.text()}\${retry}\`);
  }
});${idempotencyKeyTestLines()}${tokenDropTestLines()}`;
}

/**
 * After an error that says the cached token cannot succeed (dead, or issued without a scope the
 * credential may have gained since), the test script forgets it, so the pre-request script gets a
 * new one for the next request. The codes come from the model.
 */
function tokenDropTestLines(): string {
  return `
// Forgets the cached token after ${TOKEN_DROPPING_CODES.join(', ')}: a token keeps the scopes it was
// issued with, so the next request after the fix needs a new one.
const tokenDroppingCodes = ${JSON.stringify(TOKEN_DROPPING_CODES)};
if (pm.response && pm.response.code >= 400) {
  let droppedCode;
  try {
    droppedCode = (pm.response.json().error || {}).code;
  } catch (notJson) {
    // No JSON body: no error code to read.
  }
  if (tokenDroppingCodes.includes(droppedCode)) {
    pm.environment.set('accessToken', '');
    pm.environment.set('accessTokenExpiresAt', 0);
  }
}`;
}

/** Which eSIM statuses each simulate action accepts, and whether it needs the validity clock, from the model. */
const simulateAccepts = (): Record<
  string,
  {from: readonly string[]; needsValidityClock: boolean; needsProfile: boolean}
> =>
  Object.fromEntries(
    SANDBOX.simulateActions.map((action) => [
      action,
      {
        from: SIMULATE_ACTIONS[action].from,
        needsValidityClock: needsValidityClock(action),
        needsProfile: needsProfile(action),
      },
    ]),
  );

function simulateTestLines(): string[] {
  return [
    `  // The next action the eSIM's new status accepts, after this one in the sandbox's order, so sending again moves it on.`,
    `  const accepts = ${JSON.stringify(simulateAccepts())};`,
    `  const actions = Object.keys(accepts);`,
    `  const sent = actions.indexOf(JSON.parse(pm.variables.replaceIn(pm.request.body.raw)).action);`,
    `  const takes = (action) => accepts[action].from.includes(json.status) && (!accepts[action].needsValidityClock || json.expires_at !== null) && (!accepts[action].needsProfile || json.profile_state !== 'deleted');`,
    `  const next = actions.slice(sent + 1).concat(actions.slice(0, sent + 1)).find(takes);`,
    `  if (next) {`,
    `    pm.environment.set('simulateAction', next);`,
    `  }`,
  ];
}

/** Not in the Sandbox environment: a request to `/sandbox/...` with the Live one refuses to be sent. */
export const SANDBOX_ONLY_TEST_NAME = 'is sent to the sandbox only';

function sandboxOnlyScript(facts: ApiFacts): string {
  return `
// Sandbox simulation exists only in the sandbox: never send this request to the live host.
${isLiveLines(facts)}
if (isLive) {
  const message = \`Not sent: \${pm.info.requestName} works only in the sandbox. Select the ${postmanNames(facts).environmentNames.sandbox} environment.\`;
  pm.test('${SANDBOX_ONLY_TEST_NAME}', () => pm.expect.fail(message));
  pm.execution.skipRequest();
}`;
}

/** The collection variable that holds the order an undo request works on until that request undoes it. */
export const ORDER_TO_UNDO_VARIABLE_PREFIX = 'order to undo: ';

/** Whether a script runs with the Live environment (by name or by base URL), for the scripts. */
function isLiveLines(facts: ApiFacts): string {
  return `const isLive = pm.environment.name === '${postmanNames(facts).environmentNames.live}' ||
  pm.variables.replaceIn('{{baseUrl}}').startsWith('${facts.ENVIRONMENTS.live.apiBase}');`;
}

/**
 * In the sandbox, the undo request gets an order of its own, created once and kept until the undo
 * succeeds: pressing Send again after an error (a missing scope, say) retries the same order instead
 * of buying another. The order is created with a key kept until its 2xx, as every POST's. On Live the
 * script buys nothing: the reader names the order to undo.
 */
function freshOrderScript(variable: string, expression: string, facts: ApiFacts): string {
  return `
// In the sandbox, works on an order of its own, so the eSIM in {{iccid}} stays usable for the other
// folders. The order is kept until this request undoes it: sending again after an error retries the
// same order instead of buying another. On Live nothing is bought for you: set {{${variable}}} yourself.
${isLiveLines(facts)}
${keyReleaseFunction()}
const pendingVariable = '${ORDER_TO_UNDO_VARIABLE_PREFIX}' + pm.info.requestName;
if (isLive) {
  if (!pm.environment.get('${variable}')) {
    const message = \`Not sent: set ${variable} to the one you mean to undo; on Live this request buys nothing for you.\`;
    pm.test('${LIVE_UNDO_TEST_NAME}', () => pm.expect.fail(message));
    pm.execution.skipRequest();
  }
} else if (pm.collectionVariables.get(pendingVariable)) {
  pm.environment.set('${variable}', pm.collectionVariables.get(pendingVariable));
} else {
  const keyVariable = '${IDEMPOTENCY_KEY_VARIABLE_PREFIX}' + pendingVariable;
  if (!pm.collectionVariables.get(keyVariable)) {
    pm.collectionVariables.set(keyVariable, pm.variables.replaceIn('{{$guid}}'));
  }
  pm.sendRequest({
    url: pm.variables.replaceIn('{{baseUrl}}/orders'),
    method: 'POST',
    header: {
      Authorization: \`Bearer \${pm.environment.get('accessToken')}\`,
      'Content-Type': 'application/json',
      'Idempotency-Key': pm.collectionVariables.get(keyVariable),
    },
    body: {mode: 'raw', raw: JSON.stringify({package_id: pm.variables.replaceIn('{{packageId}}'), quantity: 1})},
  }, (error, response) => {
    if (error || response.code >= 300) {
      // The order's key goes as every POST's does: an error stored under it (a 402 or 422) would
      // replay, so the send after you fix the cause orders with a new key.
      if (response && releasesKey(response)) pm.collectionVariables.unset(keyVariable);
      const reason = error ? String(error) : \`\${response.code} \${response.text()}\`;
      pm.test('${FRESH_ORDER_TEST_NAME}', () => pm.expect.fail(\`Not sent: the order to work on could not be created: \${reason}\`));
      pm.execution.skipRequest();
      return;
    }
    const json = response.json();
    pm.collectionVariables.unset(keyVariable);
    pm.collectionVariables.set(pendingVariable, ${expression});
    pm.environment.set('${variable}', ${expression});
  });
}`;
}

/** Sandbox: an undo request whose own order could not be created is not sent (it would act on an old one). */
export const FRESH_ORDER_TEST_NAME = 'is sent only once its own order is created';

/** Live: an undo request with nothing named to undo is not sent. */
export const LIVE_UNDO_TEST_NAME = 'is sent on Live only for an order you name';

/**
 * When the kept order is let go, so that the next send works on a new one: a request that can never
 * succeed (retry: never), or a refusal by the order's or eSIM's state (one installed, a processing order),
 * which a reader pressing Send again does not change.
 */
const UNDO_GIVES_UP: {policy: RetryPolicy; codes: readonly string[]} = {
  policy: 'never',
  codes: [...new Set(STATE_RULES.map((rule) => rule.failure))],
};

function undoTestLines(): string {
  return `
// The undo is done (a 2xx), or this order cannot be undone by sending again (retry: ${UNDO_GIVES_UP.policy},
// or its state refused it): the next send works on a new order.
let undoError = {};
try {
  undoError = pm.response.json().error || {};
} catch (notJson) {
  // No JSON body: no error code to read.
}
if (pm.response.code < 300 || undoError.retry === '${UNDO_GIVES_UP.policy}' || ${JSON.stringify(UNDO_GIVES_UP.codes)}.includes(undoError.code)) {
  pm.collectionVariables.unset('${ORDER_TO_UNDO_VARIABLE_PREFIX}' + pm.info.requestName);
}`;
}

function preRequestScript(operationId: string, path: string, facts: ApiFacts): string | undefined {
  const fresh = FRESH_ORDER[operationId];
  if (path.startsWith(`/${facts.API_VERSION}/sandbox/`)) {
    return sandboxOnlyScript(facts);
  }
  return fresh ? freshOrderScript(fresh.variable, fresh.expression, facts) : undefined;
}

function testScript(operationId: string): string | undefined {
  if (FRESH_ORDER[operationId]) {
    return undoTestLines();
  }
  const stored = Object.entries(STORED_FROM_RESPONSE[operationId] ?? {});
  if (operationId !== 'createAccessToken' && operationId !== 'simulateEsimEvent' && stored.length === 0) {
    return undefined;
  }
  const lines = [
    `// Stores values for the next requests; an error answer leaves the previous ones in place.`,
    `if (pm.response.code < 300) {`,
    `  const json = pm.response.json();`,
  ];
  if (operationId === 'createAccessToken') {
    lines.push(
      `  pm.test('stores accessToken', () => {`,
      `    pm.expect(json.access_token).to.be.a('string');`,
      `    pm.environment.set('accessToken', json.access_token);`,
      `    pm.environment.set('accessTokenExpiresAt', Date.now() + json.expires_in * 1000);`,
      `  });`,
    );
  }
  if (operationId === 'simulateEsimEvent') {
    lines.push(...simulateTestLines());
  }
  if (operationId === 'createOrder') {
    lines.push(
      `  // A new eSIM starts the simulation again from its first action.`,
      `  pm.environment.set('simulateAction', '${INITIAL_SIMULATE_ACTION}');`,
    );
  }
  for (const [variable, expression] of stored) {
    lines.push(
      `  pm.test('stores ${variable}', () => {`,
      `    pm.expect(${expression}).to.be.a('string');`,
      `    pm.environment.set('${variable}', ${expression});`,
      `  });`,
    );
  }
  lines.push(`}`);
  return lines.join('\n');
}

function bodyOnVariables(
  raw: string,
  fields: Record<string, string>,
  values: Record<string, unknown>,
  where: string,
): string {
  const body = JSON.parse(raw) as Record<string, unknown>;
  const replaced = {
    ...Object.fromEntries(Object.entries(fields).map(([field, variable]) => [field, `{{${variable}}}`])),
    ...values,
  };
  for (const [field, value] of Object.entries(replaced)) {
    if (!(field in body)) {
      throw new Error(`${where}: the example body has no "${field}" to set to ${String(value)}`);
    }
    body[field] = value;
  }
  return JSON.stringify(body, null, 2);
}

function convert(document: OpenApiDocument): Promise<PostmanCollection> {
  return new Promise((resolve, reject) => {
    convertOpenApi(
      {type: 'json', data: document},
      {
        folderStrategy: 'Tags',
        requestParametersResolution: 'Example',
        exampleParametersResolution: 'Example',
        alwaysInheritAuthentication: true,
        includeAuthInfoInExample: false,
        includeWebhooks: false,
      },
      (error, result) => {
        if (error) {
          reject(new Error(`openapi-to-postmanv2 failed: ${error.message}`));
        } else if (!result?.result || !result.output?.[0]) {
          reject(new Error(`openapi-to-postmanv2 failed: ${result?.reason ?? 'no output'}`));
        } else {
          resolve(result.output[0].data as unknown as PostmanCollection);
        }
      },
    );
  });
}

function flatten(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => (item.item ? flatten(item.item) : [item]));
}

export function openApiPathOf(url: PostmanUrl): string {
  return `/${(url.path ?? []).map((segment) => segment.replace(/^:(.+)$/, '{$1}')).join('/')}`;
}

/** A required query parameter's sample: its example, else its schema's example, default or first enum value. */
function sampleValue(
  parameter: OpenApiParameter & {schema?: {example?: unknown; default?: unknown; enum?: unknown[]}},
): string | undefined {
  const value =
    parameter.example ?? parameter.schema?.example ?? parameter.schema?.default ?? parameter.schema?.enum?.[0];
  return value === undefined ? undefined : String(value);
}

/** The operation's required query parameters and their sample values, which the request sends as written. */
function requiredQuery(
  document: OpenApiDocument,
  operation: OpenApiOperation,
  method: string,
  path: string,
): Map<string, string> {
  const required = new Map<string, string>();
  for (const entry of operation.parameters ?? []) {
    const parameter = resolveRef<OpenApiParameter>(document, entry);
    if (parameter.in !== 'query' || !parameter.required) continue;
    const value = sampleValue(parameter);
    if (value === undefined) {
      throw new Error(
        `${method} ${path}: the required query parameter "${parameter.name}" needs an example in api/openapi.yaml`,
      );
    }
    required.set(parameter.name, value);
  }
  return required;
}

/** Points a converted URL at `{{tokenUrl}}` or `{{baseUrl}}` (which already ends in `/v1`); optional query parameters start switched off. */
function rewriteUrl(
  url: PostmanUrl,
  facts: ApiFacts,
  tokenPath: string,
  fillVariables: boolean,
  required: Map<string, string> = new Map(),
  overrides: Record<string, string> = {},
): PostmanUrl {
  const path = openApiPathOf(url);
  const query = (url.query ?? []).map((parameter) =>
    required.has(parameter.key)
      ? {...parameter, value: required.get(parameter.key), disabled: false}
      : {...parameter, disabled: true},
  );
  if (path === tokenPath) {
    return {raw: '{{tokenUrl}}', host: ['{{tokenUrl}}']};
  }
  const segments = (url.path ?? []).slice(url.path?.[0] === facts.API_VERSION ? 1 : 0);
  const variable = (url.variable ?? []).map((entry) => ({
    ...entry,
    value:
      fillVariables && (overrides[entry.key] ?? PATH_VARIABLES[entry.key])
        ? `{{${overrides[entry.key] ?? PATH_VARIABLES[entry.key]}}}`
        : entry.value,
  }));
  const enabledQuery = query.filter((parameter) => !parameter.disabled);
  const raw = `{{baseUrl}}/${segments.join('/')}${enabledQuery.length ? `?${enabledQuery.map((q) => `${q.key}=${q.value ?? ''}`).join('&')}` : ''}`;
  return {raw, host: ['{{baseUrl}}'], path: segments, query, variable};
}

export async function generatePostmanCollection(
  document: OpenApiDocument,
  facts: ApiFacts,
): Promise<PostmanCollection> {
  const names = postmanNames(facts);
  const converted = await convert(document);
  const tokenUrlPath = new URL(facts.ENVIRONMENTS.sandbox.tokenUrl).pathname;
  const requests = new Map(
    flatten(converted.item).map((item) => [`${item.request?.method} ${openApiPathOf(item.request!.url)}`, item]),
  );

  const {failurePath} = POSTMAN_RUNS;
  if (!Object.values(BODY_VARIABLES[failurePath.operationId] ?? {}).includes(failurePath.variable)) {
    throw new Error(
      `POSTMAN_RUNS.failurePath: the ${failurePath.operationId} body does not use {{${failurePath.variable}}}`,
    );
  }
  const folders: PostmanItem[] = document.tags.map((tag, index) => ({
    name: `${String(index).padStart(2, '0')} ${tag.name}`,
    description: tag.description,
    item: [],
  }));
  for (const {method, path, operation} of listOperations(document)) {
    const item = requests.get(`${method} ${path}`);
    const folder = folders[document.tags.findIndex((tag) => tag.name === operation.tags[0])];
    if (!item?.request || !folder) {
      throw new Error(`No converted request or folder for ${method} ${path}`);
    }
    const request = item.request;
    const required = requiredQuery(document, operation, method, path);
    request.url = rewriteUrl(
      request.url,
      facts,
      tokenUrlPath,
      true,
      required,
      PATH_VARIABLE_OVERRIDES[operation.operationId],
    );
    delete request.auth;
    for (const header of request.header ?? []) {
      if (header.key.toLowerCase() === 'idempotency-key') {
        header.value = '{{idempotencyKey}}';
        header.disabled = false;
      }
    }
    const bodyVariables = BODY_VARIABLES[operation.operationId];
    const bodyValues = BODY_VALUES[operation.operationId];
    if (bodyVariables || bodyValues) {
      if (request.body?.mode !== 'raw' || typeof request.body.raw !== 'string') {
        throw new Error(`${method} ${path}: expected a raw JSON body to fill with variables`);
      }
      request.body.raw = bodyOnVariables(request.body.raw, bodyVariables ?? {}, bodyValues ?? {}, `${method} ${path}`);
    }
    if (path === tokenUrlPath) {
      request.auth = {type: 'noauth'};
      const credentials: Record<string, string> = {client_id: '{{clientId}}', client_secret: '{{clientSecret}}'};
      for (const field of request.body?.urlencoded ?? []) {
        field.value = credentials[field.key] ?? field.value;
        field.disabled = field.key === 'scope';
      }
    }
    for (const [index, response] of (item.response ?? []).entries()) {
      response.id = stableId(`${method} ${path} response ${index}`);
      if (response.originalRequest) {
        response.originalRequest.url = rewriteUrl(response.originalRequest.url, facts, tokenUrlPath, false, required);
      }
    }
    const test = testScript(operation.operationId);
    const preRequest = preRequestScript(operation.operationId, path, facts);
    const events = [...(preRequest ? [script('prerequest', preRequest)] : []), ...(test ? [script('test', test)] : [])];
    folder.item!.push({
      ...item,
      id: stableId(`${method} ${path}`),
      name: operation.summary,
      // Requests that store nothing have no script of their own: the collection test checks them.
      event: events.length ? events : undefined,
    });
  }

  return {
    info: {
      _postman_id: stableId(names.collectionName),
      name: names.collectionName,
      description: converted.info.description,
      schema: SCHEMA_V21,
    },
    item: folders,
    auth: {type: 'bearer', bearer: [{key: 'token', value: '{{accessToken}}', type: 'string'}]},
    event: [script('prerequest', tokenPreRequestScript(facts)), script('test', statusTestScript())],
    variable: [],
  };
}

export function generatePostmanEnvironment(facts: ApiFacts, key: EnvironmentKey): PostmanEnvironment {
  const environment = facts.ENVIRONMENTS[key];
  const name = postmanNames(facts).environmentNames[key];
  const preset: Partial<Record<(typeof ENVIRONMENT_VARIABLES)[number], string>> = {
    baseUrl: environment.apiBase,
    tokenUrl: environment.tokenUrl,
    packageId: facts.SAMPLES.packageId,
    simulateAction: INITIAL_SIMULATE_ACTION,
  };
  return {
    id: stableId(name),
    name,
    values: ENVIRONMENT_VARIABLES.map((variable) => ({
      key: variable,
      value: preset[variable] ?? '',
      type: variable === 'clientSecret' ? 'secret' : 'default',
      enabled: true,
    })),
    _postman_variable_scope: 'environment',
  };
}
