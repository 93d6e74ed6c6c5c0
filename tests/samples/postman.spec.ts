// The "Test in Postman" page, run as it tells the reader: the generated collection and Sandbox environment in newman
// against the local sandbox. Folders, variables and outcomes come from the contract data the page renders
// (lib/contract/data.ts), so the page and this test cannot drift apart.
import {expect, test} from '@playwright/test';
import newman, {type NewmanRunSummary} from 'newman';

import {ARTIFACTS, ENVIRONMENTS, SAMPLES, SANDBOX} from '../../src/constants/api';
import {errorRule, IDEMPOTENCY, SIMULATE_ACTIONS, TOKEN_DROPPING_CODES} from '../../src/constants/behaviour';
import {contractData, type ContractData} from '../../lib/contract/data';
import type {Artifacts} from '../../lib/contract/artifacts';
import {
  INITIAL_SIMULATE_ACTION,
  RETRY_ADVICE,
  FRESH_ORDER_TEST_NAME,
  LIVE_UNDO_TEST_NAME,
  SANDBOX_ONLY_TEST_NAME,
  TOKEN_TEST_NAME,
  type PostmanCollection,
  type PostmanEnvironment,
} from '../../lib/contract/postman';
import {scopesFor} from '../../lib/contract/scopes';
import {startSandbox, TOKEN_URL_PATH, type Sandbox} from '../../sandbox/server';
import {accessToken, send} from '../../sandbox/test-helpers';
import {loadArtifacts} from './contract';
import {requestLog, startProxy, useUpTokenRequests, type RequestEntry} from './sessions';

const CREDENTIAL = {
  clientId: `${ENVIRONMENTS.sandbox.clientIdPrefix}postman`,
  clientSecret: `${ENVIRONMENTS.sandbox.clientSecretPrefix}postman`,
};
const ORDERS_PATH = new URL(`${ENVIRONMENTS.sandbox.apiBase}/orders`).pathname;

let artifacts: Artifacts;
let contract: ContractData;
let postman: ContractData['postman'];
// Every test but the Collection Runner's shares one sandbox; each reader has a credential of their own, so their own
// state and rate-limit windows. Every folder runs many times a minute there: the rate limit is not what that is about.
let shared: Sandbox;
let unlimited: Sandbox;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  [artifacts, shared, unlimited] = await Promise.all([
    loadArtifacts(),
    startSandbox({credentials: []}),
    startSandbox({credentials: [], requestsPerMinute: 10_000}),
  ]);
  contract = contractData(artifacts);
  postman = contract.postman;
});
test.afterAll(() => Promise.all([shared?.close(), unlimited?.close()]));

/** The requests of `folders`, in collection order. */
const requestsOf = (folders: readonly string[]) =>
  postman.folders.filter((folder) => folders.includes(folder.name)).flatMap((folder) => folder.requests);
const requestFor = (operation: string) =>
  postman.folders.flatMap((folder) => folder.requests).find((request) => request.operation === operation)!;
const environmentOf = (key: 'postmanSandboxEnvironment' | 'postmanLiveEnvironment') =>
  JSON.parse(artifacts.get(ARTIFACTS[key])!) as PostmanEnvironment;
const valueOf = (environment: PostmanEnvironment, key: string) =>
  environment.values.find((value) => value.key === key)!.value;

/** The environment with `values` changed, as the reader fills it in Postman. */
function withValues(environment: PostmanEnvironment, values: Record<string, string>): PostmanEnvironment {
  const unknown = Object.keys(values).filter((key) => !environment.values.some((value) => value.key === key));
  if (unknown.length > 0) throw new Error(`not variables of ${environment.name}: ${unknown.join(', ')}`);
  return {
    ...environment,
    values: environment.values.map((value) => ({...value, value: values[value.key] ?? value.value})),
  };
}

/** The generated Sandbox environment sent to `origin` (the local sandbox, or a proxy before it), with the reader's credential. */
function localEnvironment(origin: string, values: Record<string, string> = {}) {
  const environment = environmentOf('postmanSandboxEnvironment');
  const local = (key: string) => `${origin}${new URL(valueOf(environment, key)).pathname}`;
  return withValues(environment, {
    baseUrl: local('baseUrl'),
    tokenUrl: local('tokenUrl'),
    clientId: CREDENTIAL.clientId,
    clientSecret: CREDENTIAL.clientSecret,
    ...values,
  });
}

/** `log`: the requests the sandbox answered, the scripts' own included. */
type Run = {summary: NewmanRunSummary; log: RequestEntry[]; values: Record<string, string>; figures: string};

/** A newman run of `folders` (collection order), or of the `requests` named alone as a reader presses Send. */
type NewmanOptions = {
  folders?: readonly string[];
  requests?: readonly string[];
  iterations?: number;
  /** Variables per send (Postman's data variables override the environment's). */
  iterationData?: Record<string, string>[];
  /** A reader changing the credential between two sends. */
  beforeIteration?: (iteration: number) => void;
  /** Every URL newman sends (scripts' included), whatever the host. */
  sentUrls?: string[];
};

async function runNewman(sandbox: Sandbox, environment: PostmanEnvironment, options: NewmanOptions): Promise<Run> {
  const collection = JSON.parse(artifacts.get(ARTIFACTS.postmanCollection)!) as PostmanCollection;
  const {requests} = options;
  const item = requests
    ? collection.item
        .map((folder) => ({...folder, item: (folder.item ?? []).filter((request) => requests.includes(request.name))}))
        .filter((folder) => folder.item.length > 0)
    : collection.item;
  const logStart = sandbox.log.length;
  const started = Date.now();
  const summary = await new Promise<NewmanRunSummary>((resolve, reject) => {
    newman
      .run(
        {
          collection: {...collection, item} as never,
          environment: environment as never,
          ...(options.folders && {folder: [...options.folders]}),
          iterationCount: options.iterations ?? 1,
          ...(options.iterationData && {iterationData: options.iterationData}),
          reporters: [],
          timeoutRequest: 10_000,
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      )
      .on('beforeIteration', (_error, args) =>
        options.beforeIteration?.((args as {cursor: {iteration: number}}).cursor.iteration),
      )
      .on('beforeRequest', (_error, args) =>
        options.sentUrls?.push(String((args as {request: {url: unknown}}).request.url)),
      );
  });
  // At run time `summary.environment` is a postman-collection VariableScope.
  const values = (summary.environment as unknown as {toObject(): Record<string, unknown>}).toObject();
  const {assertions} = summary.run.stats;
  return {
    summary,
    log: requestLog(sandbox.log.slice(logStart)),
    values: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value ?? '')])),
    figures: `${summary.run.executions.length} requests, ${assertions.total} assertions (${assertions.failed} failed), ${((Date.now() - started) / 1000).toFixed(1)} s`,
  };
}

const failuresOf = (run: Run) =>
  run.summary.run.failures.map(({source, error}) => `${source?.name} › ${error.test}: ${error.message}`);
const testsFailed = (failures: NewmanRunSummary['run']['failures']) =>
  failures.map((failure) => ({request: failure.source?.name, test: failure.error.test}));
/** The requests not answered 2xx. */
const notOk = (run: Run) =>
  run.log
    .filter((entry) => entry.status >= 300)
    .map((entry) => `${entry.method} ${entry.path} ${entry.status} ${entry.code}`);

test.describe('Test in Postman: the page’s runs in newman against the sandbox', () => {
  test.describe.configure({mode: 'serial', timeout: 120_000});
  /** The environment as the happy path left it: the failure path runs "again" on it. */
  let afterHappyPath: Record<string, string> | undefined;
  let scopes: string[];
  test.beforeAll(() => {
    // Exactly what the happy-path folders send; the page states the same list (PostmanRunScopes).
    const operations = requestsOf(postman.runs.happyPath.folders).map(({operation}) => operation);
    scopes = scopesFor(contract, operations);
    expect(postman.runs.happyPath.scopes).toEqual(scopes);
    shared.setCredentials([{...CREDENTIAL, scopes}]);
  });
  const run = (environment: PostmanEnvironment, folders: readonly string[]) =>
    runNewman(shared, environment, {folders});
  const readerEnvironment = () => localEnvironment(shared.origin);

  test('happy path: the page’s folders, in its order, pass every test and store the IDs', async () => {
    const {folders, stores} = postman.runs.happyPath;
    expect(folders.length).toBeGreaterThan(0);
    const happy = await run(readerEnvironment(), folders);
    console.log(`newman happy path (${folders.join(', ')}) [scopes: ${scopes.join(' ')}]: ${happy.figures}`);
    test.info().annotations.push({type: 'newman happy path', description: happy.figures});

    expect(failuresOf(happy)).toEqual([]);
    // Every request of those folders ran, in the page's folder order.
    const expected = requestsOf(folders).map((request) => request.name);
    expect(postman.runs.happyPath.requests).toEqual(expected);
    expect(happy.summary.run.executions.map((execution) => execution.item.name)).toEqual(expected);
    expect(folders).toEqual(postman.folders.map((folder) => folder.name).filter((name) => folders.includes(name)));
    // One test per request at least (the collection's status test), all passed.
    expect(happy.summary.run.stats.assertions.total).toBeGreaterThanOrEqual(expected.length);

    // What the page says the test scripts store was stored: the IDs the sandbox answered, used by later requests.
    expect(stores).toEqual(expect.arrayContaining(['orderId', 'iccid']));
    for (const key of stores) expect(happy.values[key], `${key} stored`).toMatch(/\S/);
    expect(happy.log.find((entry) => entry.operation === 'POST /v1/orders')).toMatchObject({status: 201});
    expect(happy.log.some((entry) => entry.path === `${ORDERS_PATH}/${happy.values.orderId}`)).toBe(true);
    expect(happy.log.some((entry) => entry.path === `/v1/esims/${happy.values.iccid}`)).toBe(true);
    expect(notOk(happy)).toEqual([]);
    // The token script reuses the token that the first request stored: one token request in the whole run.
    expect(happy.log.filter((entry) => entry.path === TOKEN_URL_PATH)).toHaveLength(1);
    afterHappyPath = happy.values;
  });

  test('failure path: with the failing package, the page’s folder fails exactly as the page says', async () => {
    expect(afterHappyPath, 'the happy path ran first').toBeDefined();
    const failure = postman.runs.failurePath;
    // "Set packageId to … and run the folder again", on the environment the happy path left.
    const environment = withValues(readerEnvironment(), {...afterHappyPath!, [failure.variable]: failure.value});
    const failed = await run(environment, [failure.folder]);
    console.log(
      `newman failure path (${failure.folder}, ${failure.variable}=${failure.value}): ${failed.figures}\n  ${failuresOf(failed).join('\n  ')}`,
    );
    test.info().annotations.push({type: 'newman failure path', description: failed.figures});

    // The request answers the status and code the page names …
    const failing = failed.summary.run.executions.find((execution) => execution.item.name === failure.request);
    expect(failing?.response?.code).toBe(failure.status);
    expect((failing?.response?.json() as {error?: {code?: string}}).error?.code).toBe(failure.code);
    const order = requestsOf([failure.folder]).find((request) => request.name === failure.request)!;
    expect(failed.log.find((entry) => entry.operation === order.operation)).toMatchObject({
      status: failure.status,
      code: failure.code,
    });

    // … and only its test the page names fails, with a message starting "422 provisioning_failed" and saying what
    // to do, from the retry policy the answer carries (the model's, for this code).
    expect(testsFailed(failed.summary.run.failures)).toEqual([{request: failure.request, test: failure.test}]);
    const {message} = failed.summary.run.failures[0]!.error;
    expect(message).toMatch(new RegExp(`^${failure.status} ${failure.code}: \\S`));
    expect(message).toContain(`(retry: ${RETRY_ADVICE[errorRule(failure.code).retry]})`);

    // The other requests of the folder, which the page names, ran and passed.
    const folderRequests = requestsOf([failure.folder]).map((request) => request.name);
    expect(failed.summary.run.executions.map((execution) => execution.item.name)).toEqual(folderRequests);
    expect(failure.otherRequests).toEqual(folderRequests.filter((name) => name !== failure.request));

    // What the failed request would have stored keeps the last order's values, as the page says.
    expect(failure.keeps).toEqual(
      postman.variables.filter((variable) => variable.setBy.includes(failure.request)).map((variable) => variable.key),
    );
    expect(failure.keeps.length).toBeGreaterThan(0);
    for (const key of failure.keeps) expect(failed.values[key], `${key} kept`).toBe(afterHappyPath![key]);
    expect(failed.values[failure.variable]).toBe(failure.value);

    // Setting the variable back, as the page's last step says, makes the folder pass again.
    expect(failure.resetValue).toBe(valueOf(readerEnvironment(), failure.variable));
    const again = await run(withValues(environment, {...failed.values, [failure.variable]: failure.resetValue}), [
      failure.folder,
    ]);
    expect(failuresOf(again)).toEqual([]);
  });
});

test.describe('Collection Runner: every folder in order, as the reader may run it', () => {
  test.describe.configure({mode: 'serial', timeout: 120_000});
  test.beforeAll(() => {
    // The scopes the page's setup step names for the whole collection, since every folder runs.
    expect(postman.scopes).toEqual(expect.arrayContaining(postman.runs.happyPath.scopes));
    unlimited.setCredentials([{...CREDENTIAL, scopes: postman.scopes}]);
  });
  const run = (environment: PostmanEnvironment, folders: readonly string[]) =>
    runNewman(unlimited, environment, {folders});
  const readerEnvironment = (values: Record<string, string> = {}) => localEnvironment(unlimited.origin, values);
  const executionOf = (done: Run, operation: string) => {
    const {name} = requestFor(operation);
    // The last: a request's pre-request `pm.sendRequest` is recorded under its name before it.
    return [...done.summary.run.executions].reverse().find((execution) => execution.item.name === name);
  };

  /** Passes over every folder; the state the earlier requests leave is what the later ones get. */
  async function fullRun(values: Record<string, string> = {}): Promise<Run> {
    const folders = postman.folders.map((folder) => folder.name);
    const done = await run(readerEnvironment(values), folders);
    console.log(`newman full run ${JSON.stringify(values)}: ${done.figures}`);
    expect(failuresOf(done)).toEqual([]);
    // Every request ran once, in folder order (a script's own request is recorded under the same name).
    const names = done.summary.run.executions.map((execution) => execution.item.name);
    expect(names.filter((name, index) => name !== names[index - 1])).toEqual(
      requestsOf(folders).map((request) => request.name),
    );
    // Every request, the scripts' own included, answered 2xx: each did what its name says.
    expect(notOk(done)).toEqual([]);
    return done;
  }

  /** The pass over all folders, whose eSIM the simulation then walks on. */
  let passed: Run | undefined;
  test('a pass over all folders: cancel and refund work on orders of their own, and the simulation fits the eSIM', async () => {
    const done = (passed = await fullRun());
    // The refund and the cancel did not touch the order and eSIM the other folders use.
    const cancelled = executionOf(done, 'POST /v1/orders/{order_id}/cancel')!.response.json() as {id: string};
    expect(cancelled.id).toBe(done.values.cancelOrderId);
    expect(cancelled.id).not.toBe(done.values.orderId);
    const refunded = executionOf(done, 'POST /v1/refunds')!.response.json() as {iccid: string};
    expect(refunded.iccid).toBe(done.values.refundIccid);
    expect(refunded.iccid).not.toBe(done.values.iccid);
    // The simulation sent the environment's default action to the run's eSIM, which accepted it.
    const simulated = executionOf(done, 'POST /v1/sandbox/esims/{iccid}/simulate')!;
    expect(simulated.response.code).toBeLessThan(300);
    const esim = simulated.response.json() as {iccid: string; status: string};
    expect(esim.iccid).toBe(done.values.iccid);
    expect(valueOf(environmentOf('postmanSandboxEnvironment'), 'simulateAction')).toBe(INITIAL_SIMULATE_ACTION);
    expect(SIMULATE_ACTIONS[INITIAL_SIMULATE_ACTION as keyof typeof SIMULATE_ACTIONS].to).toBe(esim.status);
  });

  test('sending the simulation again walks the eSIM through its lifecycle without an invalid_state', async () => {
    const folder = postman.folders.find((candidate) =>
      candidate.requests.some((request) => request.operation === 'POST /v1/sandbox/esims/{iccid}/simulate'),
    )!.name;
    expect(passed, 'the pass over all folders ran first').toBeDefined();
    // The full run sent the first action; each send of the folder then sends the one its script chose.
    let values = passed!.values;
    const sent: string[] = [INITIAL_SIMULATE_ACTION];
    while (sent.length < SANDBOX.simulateActions.length) {
      sent.push(values.simulateAction!);
      const done = await run(readerEnvironment(values), [folder]);
      expect(failuresOf(done)).toEqual([]);
      values = done.values;
    }
    // In the model's order, each action is valid for the status the previous one left: all were sent.
    expect(sent).toEqual([...SANDBOX.simulateActions]);
  });

  test('another package with top-ups: "Add a top-up" orders the first package its eSIM lists', async () => {
    // The default package's countries, and another catalogue package with top-ups elsewhere.
    const token = await accessToken(unlimited.origin, {...CREDENTIAL, scopes: []});
    const apiPath = new URL(ENVIRONMENTS.sandbox.apiBase).pathname;
    const get = async (urlPath: string) => (await send(unlimited.origin, 'GET', `${apiPath}${urlPath}`, {token})).body;
    const defaultId = valueOf(environmentOf('postmanSandboxEnvironment'), 'packageId');
    type Package = {id: string; countries: string[]; topup_available: boolean};
    const defaultPackage = (await get(`/packages/${defaultId}`)) as Package;
    const catalogue = (await get('/packages?limit=100')).data as Package[];
    const other = catalogue.find(
      (pkg) => pkg.topup_available && pkg.countries.join() !== defaultPackage.countries.join(),
    );
    expect(other, 'a catalogue package with top-ups for other countries').toBeDefined();

    const done = await fullRun({packageId: other!.id});
    const listed = executionOf(done, 'GET /v1/esims/{iccid}/topup-packages')!.response.json() as {data: {id: string}[]};
    const topup = executionOf(done, 'POST /v1/esims/{iccid}/topups')!.response.json() as {package_id: string};
    expect(topup.package_id).toBe(listed.data[0]!.id);
    expect(done.values.topupPackageId).toBe(listed.data[0]!.id);
  });

  /** `folders` on the Live environment, with a made-up token already there so nothing but the requests is sent. */
  async function runLive(folders: readonly string[], values: Record<string, string> = {}) {
    const environment = withValues(environmentOf('postmanLiveEnvironment'), {
      accessToken: 'live-token',
      accessTokenExpiresAt: String(Date.now() + 3_600_000),
      ...values,
    });
    const sent: string[] = [];
    const done = await runNewman(unlimited, environment, {folders, sentUrls: sent});
    return {...done, sent};
  }

  test('the Live environment never sends a sandbox-only request', async () => {
    const sandboxOnly = postman.folders
      .flatMap((folder) => folder.requests.map((request) => ({folder: folder.name, ...request})))
      .filter((request) =>
        request.operation.split(' ')[1]!.startsWith(`${new URL(ENVIRONMENTS.live.apiBase).pathname}/sandbox/`),
      );
    expect(sandboxOnly.length).toBeGreaterThan(0);
    const {summary, sent} = await runLive([...new Set(sandboxOnly.map((request) => request.folder))], {
      iccid: `${SANDBOX.iccidPrefix}0000000000001`,
    });
    expect(sent.filter((url) => url.includes('/sandbox/'))).toEqual([]);
    // A folder may also hold ordinary requests (the sandbox's disable sits among the webhook requests);
    // with a made-up live token those fail too, which is not what this test is about.
    const sandboxOnlyNames = new Set(sandboxOnly.map((request) => request.name));
    const guarded = summary.run.failures.filter((failure) => sandboxOnlyNames.has(failure.source?.name ?? ''));
    expect(testsFailed(guarded)).toEqual(
      sandboxOnly.map((request) => ({request: request.name, test: SANDBOX_ONLY_TEST_NAME})),
    );
    for (const failure of guarded) expect(failure.error.message).toMatch(/works only in the sandbox/);
  });

  test('on Live, cancel and refund buy no order of their own: with none named, they are not sent', async () => {
    const undo = ['POST /v1/orders/{order_id}/cancel', 'POST /v1/refunds'];
    const folders = postman.folders
      .filter((folder) => folder.requests.some((request) => undo.includes(request.operation)))
      .map((folder) => folder.name);
    const {summary, sent} = await runLive(folders);
    const ordersUrl = `${ENVIRONMENTS.live.apiBase}/orders`;
    expect(sent.filter((url) => url === ordersUrl || url.startsWith(`${ordersUrl}/`))).toEqual([]);
    const undoNames = new Set(
      requestsOf(folders)
        .filter((request) => undo.includes(request.operation))
        .map((request) => request.name),
    );
    expect(
      testsFailed(summary.run.failures)
        .filter((failure) => undoNames.has(failure.request ?? ''))
        .map((failure) => failure.test),
    ).toEqual([...undoNames].map(() => LIVE_UNDO_TEST_NAME));
  });
});

/** A new reader on the shared sandbox: their own credential (every scope) and state. */
function newReader(name: string) {
  const credential = {...CREDENTIAL, clientId: `${CREDENTIAL.clientId}${name}`};
  const allScopes = contract.scopes.map((scope) => scope.scope);
  const setScopes = (next: string[]) => shared.setCredentials([{...credential, scopes: next}]);
  setScopes(allScopes);
  /** The credential lacks `operation`'s scope until the reader adds it (in the Dashboard) before send `at`. */
  const scopeAddedAt = (operation: string, at: number) => {
    const [scope] = contract.operationScopes[operation]!;
    setScopes(allScopes.filter((candidate) => candidate !== scope));
    return (iteration: number) => iteration === at && setScopes(allScopes);
  };
  /** The requests for `operations` sent alone, as the reader presses Send again, against `origin`. */
  const sendAgain = (operations: string[], options: NewmanOptions, origin = shared.origin) =>
    runNewman(shared, localEnvironment(origin, {clientId: credential.clientId}), {
      ...options,
      requests: operations.map((operation) => requestFor(operation).name),
    });
  return {credential, scopeAddedAt, sendAgain};
}

const withoutToken = (run: Run) => run.log.filter((entry) => entry.operation !== `POST ${TOKEN_URL_PATH}`);

test('after a lost answer, a POST keeps its Idempotency-Key until an answer is stored under it, so the resend replays the order instead of buying twice', async () => {
  const {sendAgain} = newReader('resend');
  // A proxy that loses the first order's answer: the sandbox does the work, then the connection drops.
  const orders: {key: string | undefined; status: number; replayed: boolean; id: string | undefined}[] = [];
  const proxy = await startProxy(shared.origin, {
    answer: ({method, url, headers, status, answerHeaders, text}) => {
      if (method !== 'POST' || url.pathname !== ORDERS_PATH) return text;
      const replayed = answerHeaders.get(IDEMPOTENCY.replayHeader) === 'true';
      orders.push({key: headers['idempotency-key'], status, replayed, id: (JSON.parse(text) as {id?: string}).id});
      return orders.length === 1 ? null : text;
    },
  });
  try {
    // "Create an order" alone, sent three times as a reader would press Send: the first answer is lost,
    // the second send gets the first order back, the third is a new order.
    const {summary} = await sendAgain(['POST /v1/orders'], {iterations: 3}, proxy.origin);
    // The first send fails on the dropped connection; what matters is what the sandbox was sent.
    expect(summary.run.executions.length).toBeGreaterThanOrEqual(3);
    expect(orders.map(({status, replayed}) => ({status, replayed}))).toEqual([
      {status: 201, replayed: false},
      {status: 201, replayed: true},
      {status: 201, replayed: false},
    ]);
    const [lostAnswer, resend, next] = orders;
    expect(resend!.key, 'the resend after the lost answer carries the same key').toBe(lostAnswer!.key);
    expect(resend!.id, 'and gets the first order back').toBe(lostAnswer!.id);
    expect(next!.key, 'after the stored 2xx, the next send is a new request with a new key').not.toBe(resend!.key);
    expect(IDEMPOTENCY.isStored(resend!.status)).toBe(true);
    // Two orders, not three: only the third send was meant to buy again.
    expect(new Set(orders.map((order) => order.id)).size).toBe(2);
  } finally {
    await proxy.close();
  }
});

test('after a 403, the order a refund works on is kept until it is refunded, so sending again buys nothing more', async () => {
  const {scopeAddedAt, sendAgain} = newReader('refund');
  // The reader's credential first lacks the refund's scope, as Quick start's does; then they add it.
  const run = await sendAgain([`POST ${TOKEN_URL_PATH}`, 'POST /v1/refunds'], {
    iterations: 4,
    beforeIteration: scopeAddedAt('POST /v1/refunds', 2),
  });
  const refundsPath = new URL(`${ENVIRONMENTS.sandbox.apiBase}/refunds`).pathname;
  const forbidden = errorRule('insufficient_scope');
  // One order for the two refused sends and the one that succeeds; a new one only after the refund.
  expect(withoutToken(run).map((entry) => `${entry.path} ${entry.status}`)).toEqual([
    `${ORDERS_PATH} 201`,
    `${refundsPath} ${forbidden.status}`,
    `${refundsPath} ${forbidden.status}`,
    `${refundsPath} 201`,
    `${ORDERS_PATH} 201`,
    `${refundsPath} 201`,
  ]);
  const refundName = requestFor('POST /v1/refunds').name;
  const refunded = run.summary.run.executions
    .filter((execution) => execution.item.name === refundName && execution.response.code < 300)
    .map((execution) => (execution.response.json() as {iccid: string}).iccid);
  expect(new Set(refunded).size, 'each refund an eSIM of its own order').toBe(2);
});

test('a cancel after an order that could not be created is not sent and says why; once the package is fixed, the next send orders with a new key and cancels that order', async () => {
  const {sendAgain} = newReader('cancel-failed');
  // As the page's failure path has the reader do: the failing package first, then the usual one back.
  const run = await sendAgain(['POST /v1/orders/{order_id}/cancel'], {
    iterations: 2,
    iterationData: [{packageId: SANDBOX.failingPackageId}, {packageId: SAMPLES.packageId}],
  });
  const sent = withoutToken(run);
  const failed = errorRule(SANDBOX.failingPackageError);
  expect(sent.map((entry) => `${entry.operation} ${entry.status}`)).toEqual([
    `POST /v1/orders ${failed.status}`,
    'POST /v1/orders 201',
    `POST /v1/orders/{order_id}/cancel 200`,
  ]);
  expect(sent.every((entry) => !entry.path.startsWith(ORDERS_PATH) || entry.status !== 409)).toBe(true);
  expect(run.summary.run.failures.map((failure) => failure.error.test)).toEqual([FRESH_ORDER_TEST_NAME]);
});

test('when the token endpoint refuses, a request is not sent without a token: its test says why and, after a 429, how long to wait', async () => {
  const {credential, sendAgain} = newReader('token-limit');
  // Other clients of the credential (the pages' samples, say) used up the minute's token requests.
  const spent = await useUpTokenRequests(shared.origin, credential);
  expect(
    spent.every((status) => status === 200),
    `token requests before the send: ${spent.join(', ')}`,
  ).toBe(true);
  const run = await sendAgain(['GET /v1/packages'], {});
  expect(run.log.map((entry) => `${entry.operation} ${entry.status}`)).toEqual([`POST ${TOKEN_URL_PATH} 429`]);
  expect(run.summary.run.failures.map((failure) => failure.error.test)).toEqual([TOKEN_TEST_NAME]);
  expect(run.summary.run.failures[0]!.error.message).toMatch(/429 .*rate_limited.*; send again in \d+ s/);
});

test('the cached token after insufficient_scope is forgotten, as the model says, so once the scope is added to the credential the next send gets a token that has it', async () => {
  expect(TOKEN_DROPPING_CODES).toContain('insufficient_scope');
  const {scopeAddedAt, sendAgain} = newReader('token');
  // Only the request itself: the collection's pre-request script is what gets (and keeps) the token.
  const run = await sendAgain(['GET /v1/balance'], {
    iterations: 3,
    beforeIteration: scopeAddedAt('GET /v1/balance', 1),
  });
  const forbidden = errorRule('insufficient_scope');
  // A token before the refused send, a new one after it; that one has the scope and is kept.
  expect(run.log.map((entry) => `${entry.operation} ${entry.status}`)).toEqual([
    `POST ${TOKEN_URL_PATH} 200`,
    `GET /v1/balance ${forbidden.status}`,
    `POST ${TOKEN_URL_PATH} 200`,
    'GET /v1/balance 200',
    'GET /v1/balance 200',
  ]);
});
