/**
 * The "Test in Postman" page, run the way it tells the reader to: the generated collection and
 * Sandbox environment in newman against the local sandbox, with a credential holding exactly the
 * scopes of the happy-path folders. The folders, the variable to change and the outcome to expect
 * come from the contract data the page renders (lib/contract/data.ts), so the
 * page and this test cannot drift apart. Node only: no browser, no build.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';
import newman, {type NewmanRunSummary} from 'newman';

import {ARTIFACTS, ENVIRONMENTS} from '../../src/constants/api';
import {contractData, type ContractData} from '../../lib/contract/data';
import {generateArtifacts, type Artifacts} from '../../lib/contract/artifacts';
import type {PostmanCollection, PostmanEnvironment} from '../../lib/contract/postman';
import {scopesFor} from '../../lib/contract/scopes';
import {startSandbox, type Sandbox, type SandboxLogEntry} from '../../sandbox/server';
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
): Promise<Run> {
  const logStart = sandbox.log.length;
  const started = Date.now();
  const summary = await new Promise<NewmanRunSummary>((resolve, reject) => {
    newman.run(
      {
        collection: collection as never,
        environment: environment as never,
        folder: [...folders],
        reporters: [],
        timeoutRequest: 10_000,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
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
    return withValues(environment, {
      baseUrl: onSandbox(value('baseUrl'), sandbox),
      tokenUrl: onSandbox(value('tokenUrl'), sandbox),
      clientId: CREDENTIAL.clientId,
      clientSecret: CREDENTIAL.clientSecret,
    });
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
