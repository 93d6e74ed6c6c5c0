/**
 * The "Test in Postman" page, run the way it tells the reader to: the generated collection and
 * Sandbox environment in newman against the local sandbox, with a credential holding exactly the
 * scopes of the happy-path folders. The folders, the variable to change and the outcome to expect
 * come from the contract data the page renders (lib/contract/data.ts), so the
 * page and this test cannot drift apart. Node only: no browser, no build.
 */
import {readFileSync} from 'node:fs';
import {createServer, type IncomingMessage} from 'node:http';
import type {AddressInfo} from 'node:net';
import path from 'node:path';

import {expect, test} from '@playwright/test';
import newman, {type NewmanRunSummary} from 'newman';

import {ARTIFACTS, ENVIRONMENTS, LIMITS, SAMPLES, SANDBOX} from '../../src/constants/api';
import {errorRule, IDEMPOTENCY, SIMULATE_ACTIONS, TOKEN_DROPPING_CODES} from '../../src/constants/behaviour';
import {contractData, type ContractData} from '../../lib/contract/data';
import {generateArtifacts, type Artifacts} from '../../lib/contract/artifacts';
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
import {startSandbox, TOKEN_URL_PATH, type Sandbox, type SandboxLogEntry} from '../../sandbox/server';
import {ROOT} from './blocks';

type Postman = ContractData['postman'];

const CREDENTIAL = {
  clientId: `${ENVIRONMENTS.sandbox.clientIdPrefix}postman`,
  clientSecret: `${ENVIRONMENTS.sandbox.clientSecretPrefix}postman`,
};

/** The requests of `folders`, in collection order. */
const requestsOf = (postman: Postman, folders: readonly string[]) =>
  postman.folders.filter((folder) => folders.includes(folder.name)).flatMap((folder) => folder.requests);

/** `https://sandbox.api.example.com/v1` → `http://127.0.0.1:PORT/v1`: the origin only. */
function onSandbox(url: string, sandbox: Sandbox): string {
  const parsed = new URL(url);
  return `${sandbox.origin}${parsed.pathname}${parsed.search}`;
}

/** The generated Sandbox environment with `values` changed, as the reader fills it in Postman. */
function withValues(environment: PostmanEnvironment, values: Record<string, string>): PostmanEnvironment {
  const unknown = Object.keys(values).filter((key) => !environment.values.some((value) => value.key === key));
  if (unknown.length > 0) {
    throw new Error(`not variables of ${environment.name}: ${unknown.join(', ')}`);
  }
  return {
    ...environment,
    values: environment.values.map((value) => ({...value, value: values[value.key] ?? value.value})),
  };
}

/** The generated Sandbox environment sent to `origin` (the local sandbox, or a proxy before it), with the reader's credential. */
function localEnvironment(
  artifacts: Artifacts,
  origin: string,
  values: Record<string, string> = {},
): PostmanEnvironment {
  const environment = JSON.parse(artifacts.get(ARTIFACTS.postmanSandboxEnvironment)!) as PostmanEnvironment;
  const value = (key: string) => environment.values.find((candidate) => candidate.key === key)!.value;
  const local = (url: string) => `${origin}${new URL(url).pathname}`;
  return withValues(environment, {
    baseUrl: local(value('baseUrl')),
    tokenUrl: local(value('tokenUrl')),
    clientId: CREDENTIAL.clientId,
    clientSecret: CREDENTIAL.clientSecret,
    ...values,
  });
}

/**
 * The collection's requests named `names` alone, sent `iterations` times as the reader `clientId` presses Send again,
 * against `origin`; `beforeIteration` runs before each pass (a reader changing the credential between two sends).
 */
function sendAgain(
  artifacts: Artifacts,
  names: readonly string[],
  origin: string,
  iterations: number,
  clientId: string,
  beforeIteration: (iteration: number) => void = () => {},
  /** Variables per send, as a reader changes them between two sends (Postman's data variables override the environment's). */
  iterationData?: Record<string, string>[],
): Promise<NewmanRunSummary> {
  const collection = JSON.parse(artifacts.get(ARTIFACTS.postmanCollection)!) as PostmanCollection;
  const only = collection.item
    .map((folder) => ({...folder, item: (folder.item ?? []).filter((item) => names.includes(item.name))}))
    .filter((folder) => folder.item.length > 0);
  return new Promise<NewmanRunSummary>((resolve, reject) => {
    newman
      .run(
        {
          collection: {...collection, item: only} as never,
          environment: localEnvironment(artifacts, origin, {clientId}) as never,
          iterationCount: iterations,
          ...(iterationData && {iterationData}),
          reporters: [],
          timeoutRequest: 10_000,
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      )
      .on('beforeIteration', (_error, args) =>
        beforeIteration((args as {cursor: {iteration: number}}).cursor.iteration),
      );
  });
}

type Run = {
  summary: NewmanRunSummary;
  seconds: number;
  log: SandboxLogEntry[];
  values: Record<string, string>;
  figures: string;
};

async function runFolders(
  collection: PostmanCollection,
  environment: PostmanEnvironment,
  folders: readonly string[],
  sandbox: Sandbox,
  /** Every request newman sends (scripts' included), whatever the host. */
  sentUrls: string[] = [],
): Promise<Run> {
  const logStart = sandbox.log.length;
  const started = Date.now();
  const summary = await new Promise<NewmanRunSummary>((resolve, reject) => {
    newman
      .run(
        {
          collection: collection as never,
          environment: environment as never,
          folder: [...folders],
          reporters: [],
          timeoutRequest: 10_000,
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      )
      .on('beforeRequest', (_error, args) => {
        sentUrls.push(String((args as {request: {url: unknown}}).request.url));
      });
  });
  const seconds = (Date.now() - started) / 1000;
  // At run time `summary.environment` is a postman-collection VariableScope.
  const values = (summary.environment as unknown as {toObject(): Record<string, unknown>}).toObject();
  const {assertions} = summary.run.stats;
  return {
    summary,
    seconds,
    log: sandbox.log.slice(logStart),
    values: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value ?? '')])),
    figures: `${summary.run.executions.length} requests, ${assertions.total} assertions (${assertions.failed} failed), ${seconds.toFixed(1)} s`,
  };
}

const requestLog = (log: SandboxLogEntry[]) =>
  log.filter((entry): entry is Extract<SandboxLogEntry, {kind: 'request'}> => entry.kind === 'request');

test.describe('Test in Postman: the page’s runs in newman against the sandbox', () => {
  test.describe.configure({mode: 'serial', timeout: 120_000});
  let artifacts: Artifacts;
  let postman: Postman;
  let collection: PostmanCollection;
  let sandbox: Sandbox;
  let scopes: string[];
  /** The environment as the happy path left it: the failure path runs "again" on it. */
  let afterHappyPath: Record<string, string> | undefined;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    artifacts = await generateArtifacts(readFileSync(path.join(ROOT, 'api/openapi.yaml'), 'utf8'));
    const contract = contractData(artifacts);
    postman = contract.postman;
    collection = JSON.parse(artifacts.get(ARTIFACTS.postmanCollection)!) as PostmanCollection;
    // Exactly what the happy-path folders send; the page states the same list (PostmanRunScopes).
    scopes = scopesFor(
      contract,
      requestsOf(postman, postman.runs.happyPath.folders).map((request) => request.operation),
    );
    expect(postman.runs.happyPath.scopes).toEqual(scopes);
    sandbox = await startSandbox({credentials: [{...CREDENTIAL, scopes}]});
  });

  test.afterAll(async () => {
    await sandbox?.close();
  });

  /** The Sandbox environment on the local sandbox, with the reader's credential filled in. */
  function readerEnvironment(): PostmanEnvironment {
    const environment = JSON.parse(artifacts.get(ARTIFACTS.postmanSandboxEnvironment)!) as PostmanEnvironment;
    const value = (key: string) => environment.values.find((candidate) => candidate.key === key)!.value;
    expect(value('baseUrl')).toBe(ENVIRONMENTS.sandbox.apiBase);
    expect(value('tokenUrl')).toBe(ENVIRONMENTS.sandbox.tokenUrl);
    return localEnvironment(artifacts, sandbox.origin);
  }

  test('happy path: the page’s folders, in its order, pass every test and store the IDs', async () => {
    const {folders} = postman.runs.happyPath;
    expect(folders.length).toBeGreaterThan(0);
    const run = await runFolders(collection, readerEnvironment(), folders, sandbox);
    console.log(`newman happy path (${folders.join(', ')}) [scopes: ${scopes.join(' ')}]: ${run.figures}`);
    test.info().annotations.push({type: 'newman happy path', description: run.figures});

    expect(run.summary.run.failures.map((failure) => `${failure.source?.name}: ${failure.error.message}`)).toEqual([]);
    // Every request of those folders ran, in the page's folder order.
    const expected = requestsOf(postman, folders);
    expect(postman.runs.happyPath.requests).toEqual(expected.map((request) => request.name));
    expect(run.summary.run.executions.map((execution) => execution.item.name)).toEqual(
      expected.map((request) => request.name),
    );
    expect(folders).toEqual(postman.folders.map((folder) => folder.name).filter((name) => folders.includes(name)));
    // One test per request at least (the collection's status test), all passed.
    expect(run.summary.run.stats.assertions.total).toBeGreaterThanOrEqual(expected.length);
    expect(run.summary.run.stats.assertions.failed).toBe(0);

    // What the page says the test scripts store was stored.
    const {stores} = postman.runs.happyPath;
    expect(stores).toEqual(expect.arrayContaining(['orderId', 'iccid']));
    for (const key of stores) {
      expect(run.values[key], `${key} stored`).toMatch(/\S/);
    }
    // The stored IDs are the ones the sandbox answered the order with, and the later requests used them.
    const sent = requestLog(run.log);
    expect(sent.find((entry) => entry.operation === 'POST /v1/orders')).toMatchObject({status: 201});
    expect(sent.some((entry) => entry.path === `/v1/orders/${run.values.orderId}`)).toBe(true);
    expect(sent.some((entry) => entry.path === `/v1/esims/${run.values.iccid}`)).toBe(true);
    expect(
      sent
        .filter((entry) => entry.status >= 300)
        .map((entry) => `${entry.method} ${entry.path} ${entry.status} ${entry.code}`),
    ).toEqual([]);
    // The token script reuses the token that the first request stored: one token request in the whole run.
    expect(sent.filter((entry) => entry.path === new URL(ENVIRONMENTS.sandbox.tokenUrl).pathname)).toHaveLength(1);
    afterHappyPath = run.values;
  });

  test('failure path: with the failing package, the page’s folder fails exactly as the page says', async () => {
    expect(afterHappyPath, 'the happy path ran first').toBeDefined();
    const failure = postman.runs.failurePath;
    // "Set packageId to … and run the folder again", on the environment the happy path left.
    const environment = withValues(readerEnvironment(), {...afterHappyPath!, [failure.variable]: failure.value});
    const run = await runFolders(collection, environment, [failure.folder], sandbox);
    const messages = run.summary.run.failures.map(
      (failed) => `${failed.source?.name} › ${(failed.error as {test?: string}).test}: ${failed.error.message}`,
    );
    console.log(
      `newman failure path (${failure.folder}, ${failure.variable}=${failure.value}): ${run.figures}\n  ${messages.join('\n  ')}`,
    );
    test.info().annotations.push({type: 'newman failure path', description: run.figures});

    // The request answers the status and code the page names …
    const failing = run.summary.run.executions.find((execution) => execution.item.name === failure.request);
    expect(failing?.response?.code).toBe(failure.status);
    expect((failing?.response?.json() as {error?: {code?: string}}).error?.code).toBe(failure.code);
    const order = requestsOf(postman, [failure.folder]).find((request) => request.name === failure.request)!;
    expect(requestLog(run.log).find((entry) => entry.operation === order.operation)).toMatchObject({
      status: failure.status,
      code: failure.code,
    });

    // … and only its test the page names fails, with a message starting "422 provisioning_failed".
    expect(
      run.summary.run.failures.map((failed) => ({
        request: failed.source?.name,
        test: (failed.error as {test?: string}).test,
      })),
    ).toEqual([{request: failure.request, test: failure.test}]);
    expect(run.summary.run.failures[0]!.error.message).toMatch(new RegExp(`^${failure.status} ${failure.code}: \\S`));
    // It also says what to do, from the retry policy the answer carries (the model's, for this code).
    expect(run.summary.run.failures[0]!.error.message).toContain(
      `(retry: ${RETRY_ADVICE[errorRule(failure.code).retry]})`,
    );

    // The other requests of the folder, which the page names, ran and passed.
    const folderRequests = requestsOf(postman, [failure.folder]).map((request) => request.name);
    expect(run.summary.run.executions.map((execution) => execution.item.name)).toEqual(folderRequests);
    expect(failure.otherRequests).toEqual(folderRequests.filter((name) => name !== failure.request));
    expect(run.summary.run.stats.assertions.failed).toBe(1);

    // What the failed request would have stored keeps the last order's values, as the page says.
    expect(failure.keeps).toEqual(
      postman.variables.filter((variable) => variable.setBy.includes(failure.request)).map((variable) => variable.key),
    );
    expect(failure.keeps.length).toBeGreaterThan(0);
    for (const key of failure.keeps) {
      expect(run.values[key], `${key} kept`).toBe(afterHappyPath![key]);
    }
    expect(run.values[failure.variable]).toBe(failure.value);

    // Setting the variable back, as the page's last step says, makes the folder pass again.
    const environmentValue = readerEnvironment().values.find((value) => value.key === failure.variable)!.value;
    expect(failure.resetValue).toBe(environmentValue);
    const again = await runFolders(
      collection,
      withValues(environment, {...run.values, [failure.variable]: failure.resetValue}),
      [failure.folder],
      sandbox,
    );
    expect(again.summary.run.failures.map((failed) => `${failed.source?.name}: ${failed.error.message}`)).toEqual([]);
  });
});

test.describe('Collection Runner: every folder in order, as the reader may run it', () => {
  test.describe.configure({mode: 'serial', timeout: 120_000});
  let artifacts: Artifacts;
  let postman: Postman;
  let collection: PostmanCollection;
  let sandbox: Sandbox;

  test.beforeAll(async () => {
    artifacts = await generateArtifacts(readFileSync(path.join(ROOT, 'api/openapi.yaml'), 'utf8'));
    const contract = contractData(artifacts);
    postman = contract.postman;
    collection = JSON.parse(artifacts.get(ARTIFACTS.postmanCollection)!) as PostmanCollection;
    // The scopes the page's setup step names for the whole collection (the happy path's and the others'),
    // since every folder runs; the rate limit is not what these runs are about.
    expect(contract.postman.scopes).toEqual(expect.arrayContaining(postman.runs.happyPath.scopes));
    sandbox = await startSandbox({
      credentials: [{...CREDENTIAL, scopes: contract.postman.scopes}],
      requestsPerMinute: 10_000,
    });
  });

  test.afterAll(async () => {
    await sandbox?.close();
  });

  function environmentOf(key: 'postmanSandboxEnvironment' | 'postmanLiveEnvironment'): PostmanEnvironment {
    return JSON.parse(artifacts.get(ARTIFACTS[key])!) as PostmanEnvironment;
  }

  const readerEnvironment = (values: Record<string, string> = {}) =>
    localEnvironment(artifacts, sandbox.origin, values);

  const allFolders = () => postman.folders.map((folder) => folder.name);
  const failuresOf = (run: Run) =>
    run.summary.run.failures.map(
      (failure) => `${failure.source?.name} › ${(failure.error as {test?: string}).test}: ${failure.error.message}`,
    );
  const executionOf = (run: Run, operation: string) => {
    const name = postman.folders
      .flatMap((folder) => folder.requests)
      .find((request) => request.operation === operation)!.name;
    // The last: a request's pre-request `pm.sendRequest` is recorded under its name before it.
    return [...run.summary.run.executions].reverse().find((execution) => execution.item.name === name);
  };

  /** Passes over every folder; the state the earlier requests leave is what the later ones get. */
  async function fullRun(values: Record<string, string> = {}): Promise<Run> {
    const run = await runFolders(collection, readerEnvironment(values), allFolders(), sandbox);
    console.log(`newman full run ${JSON.stringify(values)}: ${run.figures}`);
    expect(failuresOf(run)).toEqual([]);
    // Every request ran once, in folder order (a script's own request is recorded under the same name).
    const names = run.summary.run.executions.map((execution) => execution.item.name);
    expect(names.filter((name, index) => name !== names[index - 1])).toEqual(
      requestsOf(postman, allFolders()).map((request) => request.name),
    );
    // Every request, the scripts' own included, answered 2xx: each did what its name says.
    expect(
      requestLog(run.log)
        .filter((entry) => entry.status >= 300)
        .map((entry) => `${entry.method} ${entry.path} ${entry.status} ${entry.code}`),
    ).toEqual([]);
    return run;
  }

  test('a pass over all folders: cancel and refund work on orders of their own, and the simulation fits the eSIM', async () => {
    const run = await fullRun();
    // The refund and the cancel did not touch the order and eSIM the other folders use.
    const cancelled = executionOf(run, 'POST /v1/orders/{order_id}/cancel')!.response.json() as {id: string};
    expect(cancelled.id).toBe(run.values.cancelOrderId);
    expect(cancelled.id).not.toBe(run.values.orderId);
    const refunded = executionOf(run, 'POST /v1/refunds')!.response.json() as {iccid: string};
    expect(refunded.iccid).toBe(run.values.refundIccid);
    expect(refunded.iccid).not.toBe(run.values.iccid);
    // The simulation sent the environment's default action to the run's eSIM, which accepted it.
    const simulated = executionOf(run, 'POST /v1/sandbox/esims/{iccid}/simulate')!;
    expect(simulated.response.code).toBeLessThan(300);
    const esim = simulated.response.json() as {iccid: string; status: string};
    expect(esim.iccid).toBe(run.values.iccid);
    const preset = environmentOf('postmanSandboxEnvironment').values.find((v) => v.key === 'simulateAction')!.value;
    expect(preset).toBe(INITIAL_SIMULATE_ACTION);
    expect(SIMULATE_ACTIONS[INITIAL_SIMULATE_ACTION as keyof typeof SIMULATE_ACTIONS].to).toBe(esim.status);
  });

  test('sending the simulation again walks the eSIM through its lifecycle without an invalid_state', async () => {
    const folder = postman.folders.find((candidate) =>
      candidate.requests.some((request) => request.operation === 'POST /v1/sandbox/esims/{iccid}/simulate'),
    )!.name;
    // The full run sent the first action; each send of the folder then sends the one its script chose.
    let values = (await fullRun()).values;
    const sent: string[] = [INITIAL_SIMULATE_ACTION];
    while (sent.length < SANDBOX.simulateActions.length) {
      sent.push(values.simulateAction!);
      const run = await runFolders(collection, readerEnvironment(values), [folder], sandbox);
      expect(failuresOf(run)).toEqual([]);
      values = run.values;
    }
    // In the model's order, each action is valid for the status the previous one left: all were sent.
    expect(sent).toEqual([...SANDBOX.simulateActions]);
  });

  test('another package with top-ups: "Add a top-up" orders the first package its eSIM lists', async () => {
    // The default package's countries, and another catalogue package with top-ups elsewhere.
    const tokenAnswer = await fetch(onSandbox(ENVIRONMENTS.sandbox.tokenUrl, sandbox), {
      method: 'POST',
      headers: {'Content-Type': 'application/x-www-form-urlencoded'},
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: CREDENTIAL.clientId,
        client_secret: CREDENTIAL.clientSecret,
      }),
    });
    const {access_token: token} = (await tokenAnswer.json()) as {access_token: string};
    const get = async (urlPath: string) =>
      (await (
        await fetch(`${onSandbox(ENVIRONMENTS.sandbox.apiBase, sandbox)}${urlPath}`, {
          headers: {Authorization: `Bearer ${token}`},
        })
      ).json()) as Record<string, unknown>;
    const defaultId = environmentOf('postmanSandboxEnvironment').values.find((v) => v.key === 'packageId')!.value;
    const defaultPackage = (await get(`/packages/${defaultId}`)) as {countries: string[]};
    const catalogue = (await get('/packages?limit=100')).data as {
      id: string;
      countries: string[];
      topup_available: boolean;
    }[];
    const other = catalogue.find(
      (pkg) => pkg.topup_available && pkg.countries.join() !== defaultPackage.countries.join(),
    );
    expect(other, 'a catalogue package with top-ups for other countries').toBeDefined();

    const run = await fullRun({packageId: other!.id});
    const listed = executionOf(run, 'GET /v1/esims/{iccid}/topup-packages')!.response.json() as {data: {id: string}[]};
    const topup = executionOf(run, 'POST /v1/esims/{iccid}/topups')!.response.json() as {package_id: string};
    expect(topup.package_id).toBe(listed.data[0]!.id);
    expect(run.values.topupPackageId).toBe(listed.data[0]!.id);
  });

  test('the Live environment never sends a sandbox-only request', async () => {
    const sandboxOnly = postman.folders
      .flatMap((folder) => folder.requests.map((request) => ({folder: folder.name, ...request})))
      .filter((request) =>
        request.operation.split(' ')[1]!.startsWith(`${new URL(ENVIRONMENTS.live.apiBase).pathname}/sandbox/`),
      );
    expect(sandboxOnly.length).toBeGreaterThan(0);
    const live = environmentOf('postmanLiveEnvironment');
    expect(live.values.find((value) => value.key === 'baseUrl')!.value).toBe(ENVIRONMENTS.live.apiBase);
    // A token already there, so nothing but the requests themselves could be sent.
    const environment = withValues(live, {
      accessToken: 'live-token',
      accessTokenExpiresAt: String(Date.now() + 3_600_000),
      iccid: `${SANDBOX.iccidPrefix}0000000000001`,
    });
    const sent: string[] = [];
    const run = await runFolders(
      collection,
      environment,
      [...new Set(sandboxOnly.map((r) => r.folder))],
      sandbox,
      sent,
    );
    expect(sent.filter((url) => url.includes('/sandbox/'))).toEqual([]);
    // A folder may also hold ordinary requests (the sandbox's disable sits among the webhook requests);
    // with a made-up live token those fail too, which is not what this test is about.
    const sandboxOnlyNames = new Set(sandboxOnly.map((request) => request.name));
    const guarded = run.summary.run.failures.filter((failure) => sandboxOnlyNames.has(failure.source?.name ?? ''));
    expect(
      guarded.map((failure) => ({
        request: failure.source?.name,
        test: (failure.error as {test?: string}).test,
      })),
    ).toEqual(sandboxOnly.map((request) => ({request: request.name, test: SANDBOX_ONLY_TEST_NAME})));
    for (const failure of guarded) {
      expect(failure.error.message).toMatch(/works only in the sandbox/);
    }
  });
  test('on Live, cancel and refund buy no order of their own: with none named, they are not sent', async () => {
    const undo = ['POST /v1/orders/{order_id}/cancel', 'POST /v1/refunds'];
    const folders = postman.folders.filter((folder) =>
      folder.requests.some((request) => undo.includes(request.operation)),
    );
    const environment = withValues(environmentOf('postmanLiveEnvironment'), {
      accessToken: 'live-token',
      accessTokenExpiresAt: String(Date.now() + 3_600_000),
    });
    const sent: string[] = [];
    const run = await runFolders(
      collection,
      environment,
      folders.map((folder) => folder.name),
      sandbox,
      sent,
    );
    const ordersUrl = `${ENVIRONMENTS.live.apiBase}/orders`;
    expect(sent.filter((url) => url === ordersUrl || url.startsWith(`${ordersUrl}/`))).toEqual([]);
    const undoNames = new Set(
      folders
        .flatMap((folder) => folder.requests)
        .filter((request) => undo.includes(request.operation))
        .map((r) => r.name),
    );
    expect(
      run.summary.run.failures
        .filter((failure) => undoNames.has(failure.source?.name ?? ''))
        .map((failure) => (failure.error as {test?: string}).test),
    ).toEqual([...undoNames].map(() => LIVE_UNDO_TEST_NAME));
  });
});

/** What a proxy in front of the sandbox saw of one POST: the key it carried and what the sandbox answered. */
type SeenPost = {path: string; key: string | undefined; status: number; replayed: boolean; id: string | undefined};

/**
 * A proxy in front of the sandbox that loses the answer of the first request `losesAnswerOf` matches:
 * the sandbox does the work, then the connection drops before the client reads a byte, as when a
 * network fails between the two.
 */
async function startAnswerLosingProxy(upstream: string, losesAnswerOf: (method: string, urlPath: string) => boolean) {
  const posts: SeenPost[] = [];
  let lost = false;
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          (entry): entry is [string, string] =>
            typeof entry[1] === 'string' && !['host', 'connection', 'content-length'].includes(entry[0]),
        ),
      );
      const method = request.method ?? 'GET';
      const answer = await fetch(new URL(request.url ?? '/', upstream), {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
      });
      const text = await answer.text();
      const urlPath = new URL(request.url ?? '/', upstream).pathname;
      if (method === 'POST') {
        let id: string | undefined;
        try {
          id = (JSON.parse(text) as {id?: string}).id;
        } catch {
          // Not JSON: no id to record.
        }
        posts.push({
          path: urlPath,
          key: headers['idempotency-key'],
          status: answer.status,
          replayed: answer.headers.get(IDEMPOTENCY.replayHeader) === 'true',
          id,
        });
      }
      if (!lost && losesAnswerOf(method, urlPath)) {
        lost = true;
        request.socket.destroy();
        return;
      }
      const replayed = answer.headers.get(IDEMPOTENCY.replayHeader);
      response.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
        ...(replayed !== null && {[IDEMPOTENCY.replayHeader]: replayed}),
      });
      response.end(text);
    })().catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    posts,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// The tests below send requests again on one sandbox and one generation of the contract's files, each as a reader
// of their own: their own credential, so their own state and rate-limit windows.
let againArtifacts: Promise<Artifacts> | undefined;
let againSandbox: Promise<Sandbox> | undefined;
test.afterAll(async () => (await againSandbox)?.close());
async function newReader(name: string) {
  const artifacts = await (againArtifacts ??= generateArtifacts(
    readFileSync(path.join(ROOT, 'api/openapi.yaml'), 'utf8'),
  ));
  const sandbox = await (againSandbox ??= startSandbox({credentials: []}));
  const contract = contractData(artifacts);
  const credential = {...CREDENTIAL, clientId: `${CREDENTIAL.clientId}${name}`};
  return {
    artifacts,
    contract,
    sandbox,
    credential,
    allScopes: contract.scopes.map((scope) => scope.scope),
    logStart: sandbox.log.length,
  };
}

test.describe('Resending a POST after a lost answer', () => {
  test('the request keeps its Idempotency-Key until an answer is stored under it, so the resend replays the order instead of buying twice', async () => {
    test.setTimeout(120_000);
    const {artifacts, contract, sandbox, credential, allScopes} = await newReader('resend');
    sandbox.setCredentials([{...credential, scopes: allScopes}]);
    const orderRequest = contract.postman.folders
      .flatMap((folder) => folder.requests)
      .find((request) => request.operation === 'POST /v1/orders')!;
    const ordersPath = new URL(`${ENVIRONMENTS.sandbox.apiBase}/orders`).pathname;
    const proxy = await startAnswerLosingProxy(
      sandbox.origin,
      (method, urlPath) => method === 'POST' && urlPath === ordersPath,
    );
    try {
      // "Create an order" alone, sent three times as a reader would press Send: the first answer is lost,
      // the second send gets the first order back, the third is a new order.
      const summary = await sendAgain(artifacts, [orderRequest.name], proxy.origin, 3, credential.clientId);
      // The first send fails on the dropped connection; what matters is what the sandbox was sent.
      expect(summary.run.executions.length).toBeGreaterThanOrEqual(3);

      const orders = proxy.posts.filter((post) => post.path === ordersPath);
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
});

test.describe('Cancel and refund after an error', () => {
  test('the order a refund works on is kept until it is refunded, so sending again after a 403 buys nothing more', async () => {
    test.setTimeout(120_000);
    const {artifacts, contract, sandbox, credential, allScopes, logStart} = await newReader('refund');
    const requestOf = (operation: string) =>
      contract.postman.folders.flatMap((folder) => folder.requests).find((request) => request.operation === operation)!;
    const refund = requestOf('POST /v1/refunds');
    const token = requestOf(`POST ${TOKEN_URL_PATH}`);
    const [refundScope] = contract.operationScopes['POST /v1/refunds']!;
    // The reader's credential first lacks the refund's scope, as Quick start's does; then they add it.
    sandbox.setCredentials([{...credential, scopes: allScopes.filter((scope) => scope !== refundScope)}]);
    const scopeAddedAt = 2;
    const summary = await sendAgain(
      artifacts,
      [token.name, refund.name],
      sandbox.origin,
      4,
      credential.clientId,
      (at) => {
        if (at === scopeAddedAt) sandbox.setCredentials([{...credential, scopes: allScopes}]);
      },
    );
    const sent = requestLog(sandbox.log.slice(logStart)).filter(
      (entry) => entry.operation !== `POST ${TOKEN_URL_PATH}`,
    );
    const ordersPath = new URL(`${ENVIRONMENTS.sandbox.apiBase}/orders`).pathname;
    const refundsPath = new URL(`${ENVIRONMENTS.sandbox.apiBase}/refunds`).pathname;
    const forbidden = errorRule('insufficient_scope');
    // One order for the two refused sends and the one that succeeds; a new one only after the refund.
    expect(sent.map((entry) => `${entry.path} ${entry.status}`)).toEqual([
      `${ordersPath} 201`,
      `${refundsPath} ${forbidden.status}`,
      `${refundsPath} ${forbidden.status}`,
      `${refundsPath} 201`,
      `${ordersPath} 201`,
      `${refundsPath} 201`,
    ]);
    const refunded = summary.run.executions
      .filter((execution) => execution.item.name === refund.name && execution.response.code < 300)
      .map((execution) => (execution.response.json() as {iccid: string}).iccid);
    expect(new Set(refunded).size, 'each refund an eSIM of its own order').toBe(2);
  });
});

test.describe('Cancel after an order that could not be created', () => {
  test('the cancel is not sent and says why; once the package is fixed, the next send orders with a new key and cancels that order', async () => {
    test.setTimeout(120_000);
    const {artifacts, contract, sandbox, credential, allScopes, logStart} = await newReader('cancel-failed');
    sandbox.setCredentials([{...credential, scopes: allScopes}]);
    const cancel = contract.postman.folders
      .flatMap((folder) => folder.requests)
      .find((request) => request.operation === 'POST /v1/orders/{order_id}/cancel')!;
    // As the page's failure path has the reader do: the failing package first, then the usual one back.
    const summary = await sendAgain(artifacts, [cancel.name], sandbox.origin, 2, credential.clientId, undefined, [
      {packageId: SANDBOX.failingPackageId},
      {packageId: SAMPLES.packageId},
    ]);
    const sent = requestLog(sandbox.log.slice(logStart)).filter(
      (entry) => entry.operation !== `POST ${TOKEN_URL_PATH}`,
    );
    const ordersPath = new URL(`${ENVIRONMENTS.sandbox.apiBase}/orders`).pathname;
    const failed = errorRule(SANDBOX.failingPackageError);
    expect(sent.map((entry) => `${entry.operation} ${entry.status}`)).toEqual([
      `POST /v1/orders ${failed.status}`,
      'POST /v1/orders 201',
      `POST /v1/orders/{order_id}/cancel 200`,
    ]);
    expect(sent.every((entry) => !entry.path.startsWith(ordersPath) || entry.status !== 409)).toBe(true);
    expect(summary.run.failures.map((failure) => failure.error.test)).toEqual([FRESH_ORDER_TEST_NAME]);
  });
});

test.describe('When the token endpoint refuses', () => {
  test('a request is not sent without a token: its test says why and, after a 429, how long to wait', async () => {
    test.setTimeout(120_000);
    const {artifacts, contract, sandbox, credential, allScopes, logStart} = await newReader('token-limit');
    sandbox.setCredentials([{...credential, scopes: allScopes}]);
    // Other clients of the credential (the pages' samples, say) used up the minute's token requests.
    for (let sent = 0; sent < LIMITS.tokenRequestsPerMinute; sent++) {
      const answer = await fetch(`${sandbox.origin}${TOKEN_URL_PATH}`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: credential.clientId,
          client_secret: credential.clientSecret,
        }),
      });
      expect(answer.status).toBe(200);
    }
    const packages = contract.postman.folders
      .flatMap((folder) => folder.requests)
      .find((request) => request.operation === 'GET /v1/packages')!;
    const summary = await sendAgain(artifacts, [packages.name], sandbox.origin, 1, credential.clientId);
    expect(requestLog(sandbox.log.slice(logStart)).map((entry) => `${entry.operation} ${entry.status}`)).toEqual([
      ...Array.from({length: LIMITS.tokenRequestsPerMinute}, () => `POST ${TOKEN_URL_PATH} 200`),
      `POST ${TOKEN_URL_PATH} 429`,
    ]);
    expect(summary.run.failures.map((failure) => failure.error.test)).toEqual([TOKEN_TEST_NAME]);
    expect(summary.run.failures[0]!.error.message).toMatch(/429 .*rate_limited.*; send again in \d+ s/);
  });
});

test.describe('The cached token after insufficient_scope', () => {
  test('is forgotten, as the model says, so once the scope is added to the credential the next send gets a token that has it', async () => {
    test.setTimeout(120_000);
    expect(TOKEN_DROPPING_CODES).toContain('insufficient_scope');
    const {artifacts, contract, sandbox, credential, allScopes, logStart} = await newReader('token');
    const balance = contract.postman.folders
      .flatMap((folder) => folder.requests)
      .find((request) => request.operation === 'GET /v1/balance')!;
    const [balanceScope] = contract.operationScopes['GET /v1/balance']!;
    // The reader's credential first lacks the scope; they add it in the Dashboard between two sends.
    sandbox.setCredentials([{...credential, scopes: allScopes.filter((scope) => scope !== balanceScope)}]);
    // Only the request itself: the collection's pre-request script is what gets (and keeps) the token.
    const scopeAddedAt = 1;
    await sendAgain(artifacts, [balance.name], sandbox.origin, 3, credential.clientId, (at) => {
      if (at === scopeAddedAt) sandbox.setCredentials([{...credential, scopes: allScopes}]);
    });
    const forbidden = errorRule('insufficient_scope');
    // A token before the refused send, a new one after it; that one has the scope and is kept.
    expect(requestLog(sandbox.log.slice(logStart)).map((entry) => `${entry.operation} ${entry.status}`)).toEqual([
      `POST ${TOKEN_URL_PATH} 200`,
      `${balance.operation} ${forbidden.status}`,
      `POST ${TOKEN_URL_PATH} 200`,
      `${balance.operation} 200`,
      `${balance.operation} 200`,
    ]);
  });
});
