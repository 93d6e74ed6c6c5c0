// The SDK's declaration (index.d.ts), runtime (index.mjs) and lib/sdk-surface.ts (the SDK page's method table).
import {execFile} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {createHmac, randomUUID} from 'node:crypto';
import {createRequire} from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';

import {expect, test} from '@playwright/test';
import ts from 'typescript';
import {parse} from 'yaml';

import * as sdk from '@acme-connect/sdk';

const {AcmeConnect, AcmeConnectError, AuthenticationError, SignatureVerificationError} = sdk;
// This folder is ESM ("type": "module"); the repo's TypeScript modules load as CommonJS.
const require = createRequire(import.meta.url);
const {SDK_CLASS} = require('../src/constants/site') as typeof import('../src/constants/site');
const {ENVIRONMENTS, LIMITS, SAMPLES, SDK, SANDBOX} =
  require('../src/constants/api') as typeof import('../src/constants/api');
const {ERROR_CODES, IDEMPOTENCY, RETRY_POLICIES, errorCodesOf, errorRule} =
  require('../src/constants/behaviour') as typeof import('../src/constants/behaviour');
type ErrorRule = import('../src/constants/behaviour').ErrorRule;
const {documentScopes, sandboxDocument, startSandbox, TOKEN_URL_PATH} =
  require('../sandbox/server') as typeof import('../sandbox/server');
type Sandbox = import('../sandbox/server').Sandbox;
type SandboxCredential = import('../sandbox/server').SandboxCredential;
const {listOperations, operationFacts} = require('../lib/contract/openapi') as typeof import('../lib/contract/openapi');
const {extractSdkMethods, sdkCoverage} = require('../lib/sdk-surface') as typeof import('../lib/sdk-surface');
const {webhookEventExamples} = require('../lib/contract/webhooks') as typeof import('../lib/contract/webhooks');

const SDK_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(SDK_DIR);
const DECLARATION_PATH = path.join(SDK_DIR, 'index.d.ts');
const DECLARATION = readFileSync(DECLARATION_PATH, 'utf8');
const DECLARATION_AST = ts.createSourceFile(DECLARATION_PATH, DECLARATION, ts.ScriptTarget.Latest, true);
/** The top-level declaration of sdk/index.d.ts named `name` that `is` accepts. */
const declared = <T extends ts.DeclarationStatement>(is: (node: ts.Node) => node is T, name: string) =>
  DECLARATION_AST.statements.find((node): node is T => is(node) && node.name?.text === name);
/** `make()`, made on first use only: listing the tests does not pay for it. */
const once = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};
type ContractSource = {components: {schemas: Record<string, {properties?: Record<string, {enum?: string[]}>}>}};
/** api/openapi.yaml as written (placeholders unfilled). */
const contractSource = once((): ContractSource =>
  parse(readFileSync(path.join(ROOT, 'api/openapi.yaml'), 'utf8'), {maxAliasCount: -1, merge: true}),
);
/** The OpenAPI document the build publishes (the sandbox's). */
const publishedContract = once(async () => (await sandboxDocument()).document);

// A scripted `fetch`: the token endpoint answers `token(index)`, every other call `api(call, index)`.

type Call = {url: URL; method: string; headers: Headers; body: string | undefined};
type Reply = {status?: number; body?: unknown; headers?: Record<string, string>};
type ClientOptions = Partial<ConstructorParameters<typeof AcmeConnect>[0]>;

const json = ({status = 200, body, headers}: Reply) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: {'Content-Type': 'application/json', 'X-Request-Id': 'req_test1', ...headers},
  });

/** The API's error body for `code`, with the status and `retry` policy of the behaviour model. */
const errorReply = (code: string, headers?: Record<string, string>): Reply => {
  const {status, retry} = errorRule(code);
  const error = {code, message: `${code} happened`, param: null, request_id: `req_${code}`, retry};
  return {status, headers, body: {error: {...error, doc_url: `https://docs.example.com/errors#${code}`}}};
};

/** What a call settles to: its error, or its value if it does not throw. */
const settled = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);

const originalFetch = globalThis.fetch;
const [ICCID, PACKAGE] = ['8944000000123456783', 'jp-5gb-30d'];
const newToken = (index: number): Reply => ({
  body: {access_token: `at_test_${index + 1}`, token_type: 'Bearer', expires_in: 3600, scope: 'orders:write'},
});

function scriptFetch(
  api: (call: Call, index: number) => Reply | Promise<Reply> | 'network-error' | 'hang',
  token: (index: number) => Reply = newToken,
) {
  const calls: Call[] = [];
  const apiCalls: Call[] = [];
  let tokens = 0;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const call: Call = {
      url: new URL(String(input)),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body as string | undefined,
    };
    calls.push(call);
    if (call.url.pathname.endsWith('/oauth/token')) return json(token(tokens++));
    const reply = await api(call, apiCalls.push(call) - 1);
    if (reply === 'network-error') throw new TypeError('fetch failed');
    if (reply === 'hang') {
      return new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    }
    return json(reply);
  }) as typeof fetch;
  return {calls, apiCalls, tokenRequests: () => tokens};
}

const CREDENTIAL = {clientId: 'ci_test_7Hq2LmV9', clientSecret: 'cs_test_secret'};
const client = (options: ClientOptions = {}) =>
  new AcmeConnect({...CREDENTIAL, environment: 'sandbox', maxRetries: 0, ...options});

test.afterEach(() => {
  globalThis.fetch = originalFetch;
});

test.describe('no drift from the constants', () => {
  test('the declared class is SDK_CLASS and the package is SDK.packageName at SDK.version', () => {
    expect(declared(ts.isClassDeclaration, SDK_CLASS), `sdk/index.d.ts declares ${SDK_CLASS}`).toBeDefined();
    const manifest: unknown = JSON.parse(readFileSync(path.join(SDK_DIR, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({name: SDK.packageName, version: SDK.version});
    expect(AcmeConnect.name).toBe(SDK_CLASS);
  });

  test('the declared ErrorCode, RetryPolicy and error classes name the codes and policies of the behaviour model', () => {
    const literals = (name: string) => {
      const alias = declared(ts.isTypeAliasDeclaration, name)!;
      const members = ts.isUnionTypeNode(alias.type) ? alias.type.types : [alias.type];
      return members.map((member) => ((member as ts.LiteralTypeNode).literal as ts.StringLiteral).text).sort();
    };
    expect(literals('ErrorCode')).toEqual(ERROR_CODES.map((rule) => rule.code).sort());
    expect(literals('RetryPolicy')).toEqual(Object.keys(RETRY_POLICIES).sort());
    // The token endpoint's codes (the contract's OAuthError): each is a TokenErrorCode or the API's own.
    const oauthCodes = contractSource().components.schemas.OAuthError!.properties!.error!.enum!;
    expect(oauthCodes.filter((code) => !literals('ErrorCode').includes(code)).sort()).toEqual(
      literals('TokenErrorCode').filter((code) => !literals('ErrorCode').includes(code)),
    );
    expect(oauthCodes).toEqual(expect.arrayContaining(literals('TokenErrorCode')));

    // Each error class's doc comment names exactly the model's codes of that class.
    for (const sdkClass of new Set(ERROR_CODES.map((rule) => rule.sdkClass))) {
      const node = declared(ts.isClassDeclaration, sdkClass);
      expect(node, `sdk/index.d.ts declares ${sdkClass}`).toBeDefined();
      const comment = ts
        .getLeadingCommentRanges(DECLARATION, node!.getFullStart())!
        .map((range) => DECLARATION.slice(range.pos, range.end))
        .join('');
      const named = [...comment.matchAll(/`([a-z_]+)`/g)]
        .map(([, code]) => code)
        .filter((code) => code !== 'invalid_client');
      const ofClass = ERROR_CODES.filter((rule) => rule.sdkClass === sdkClass).map((rule) => rule.code);
      expect(named.sort(), sdkClass).toEqual(ofClass.sort());
    }
  });

  test('each declared resource interface has exactly the fields of the contract schema of its name, camelCased', () => {
    const source = contractSource();
    const camel = (name: string) => name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
    const interfaces = [...DECLARATION.matchAll(/^export interface (\w+) \{\n([\s\S]*?)\n\}/gm)].filter(
      ([, name]) => source.components.schemas[name!]?.properties,
    );
    expect(interfaces.map(([, name]) => name)).toContain('Order');
    for (const [, name, body] of interfaces) {
      const declared = [...body!.matchAll(/^ {2}(?:readonly )?(\w+)\??:/gm)].map(([, field]) => field);
      const contract = Object.keys(source.components.schemas[name!]!.properties!).map(camel);
      expect(declared.sort(), name).toEqual(contract.sort());
    }
  });

  test('each environment calls exactly the API base and token URL of ENVIRONMENTS', async () => {
    const {calls} = scriptFetch(() => ({body: {id: PACKAGE}}));
    for (const environment of ['sandbox', 'live'] as const) {
      calls.length = 0;
      await client({environment}).packages.retrieve(PACKAGE);
      expect(calls.map((call) => `${call.method} ${call.url.href}`)).toEqual([
        `POST ${ENVIRONMENTS[environment].tokenUrl}`,
        `GET ${ENVIRONMENTS[environment].apiBase}/packages/jp-5gb-30d`,
      ]);
    }
  });
});

test.describe('runtime', () => {
  test('camelCase in the SDK, snake_case on the wire, metadata keys untouched', async () => {
    const metadata = {trip_code: 'TYO', tripName: 'x'};
    const [esims, price] = [[{iccid: ICCID, status: 'ready'}], {amount: 650, currency: 'USD'}];
    const activation = {lpa_string: 'LPA:1$smdp.example.com$X', qr_code_url: 'https://q', ios_install_url: 'https://i'};
    const esim = {iccid: ICCID, profile_state: 'available', activation, data_roaming_required: true};
    const order = {id: 'ord_01', package_id: PACKAGE, unit_price: price, esims, metadata};
    const {apiCalls} = scriptFetch((call) => (call.method === 'POST' ? {status: 201, body: order} : {body: esim}));
    const acme = client();
    const params = {
      packageId: PACKAGE,
      quantity: 1,
      customerReference: 'booking-88412',
      deliverToEmail: 'a@example.org',
    };
    // Literal metadata in what is expected: keys changed in place would show.
    expect(await acme.orders.create({...params, metadata})).toEqual({
      id: 'ord_01',
      packageId: PACKAGE,
      unitPrice: {amount: 650, currency: 'USD'},
      esims: [{iccid: ICCID, status: 'ready'}],
      metadata: {trip_code: 'TYO', tripName: 'x'},
    });
    expect(JSON.parse(apiCalls[0]!.body!)).toEqual({
      package_id: PACKAGE,
      quantity: 1,
      customer_reference: 'booking-88412',
      deliver_to_email: 'a@example.org',
      metadata: {trip_code: 'TYO', tripName: 'x'},
    });
    expect(apiCalls[0]!.headers.get('content-type')).toBe('application/json');
    expect(await acme.esims.retrieve(ICCID)).toEqual({
      iccid: ICCID,
      profileState: 'available',
      activation: {lpaString: 'LPA:1$smdp.example.com$X', qrCodeUrl: 'https://q', iosInstallUrl: 'https://i'},
      dataRoamingRequired: true,
    });
  });

  test('list() auto-paginates with snake_case filters, and break fetches no further page', async () => {
    const page = (next_cursor: string | null, ...data: {id: string; data_mb: number}[]) => ({
      body: {data, has_more: next_cursor !== null, next_cursor},
    });
    const {apiCalls} = scriptFetch((call) =>
      call.url.searchParams.get('cursor') === 'c_2'
        ? page(null, {id: 'jp-10gb-30d', data_mb: 10240})
        : page('c_2', {id: 'jp-3gb-15d', data_mb: 3072}, {id: PACKAGE, data_mb: 5120}),
    );
    const acme = client();
    const ids: string[] = [];
    for await (const pkg of acme.packages.list({country: 'JP', minDataMb: 3072, limit: 2})) {
      ids.push(`${pkg.id}:${pkg.dataMb}`);
    }
    expect(ids).toEqual(['jp-3gb-15d:3072', 'jp-5gb-30d:5120', 'jp-10gb-30d:10240']);
    expect(apiCalls.map((call) => call.url.search)).toEqual([
      '?country=JP&min_data_mb=3072&limit=2',
      '?country=JP&min_data_mb=3072&limit=2&cursor=c_2',
    ]);

    apiCalls.length = 0;
    for await (const pkg of acme.packages.list()) {
      expect(pkg.id).toBe('jp-3gb-15d');
      break;
    }
    expect(apiCalls).toHaveLength(1);
  });

  test('the token is fetched lazily, cached, and renewed once on token_expired', async () => {
    const expired = errorReply('token_expired');
    const {apiCalls, tokenRequests} = scriptFetch((_call, index) => (index === 2 ? expired : {body: {id: PACKAGE}}));
    const acme = client();
    expect(tokenRequests()).toBe(0);
    await Promise.all([acme.packages.retrieve(PACKAGE), acme.packages.retrieve(PACKAGE)]);
    expect(tokenRequests()).toBe(1);
    await acme.packages.retrieve(PACKAGE); // 401 token_expired, then renewed and repeated
    expect(tokenRequests()).toBe(2);
    const firstToken = Array(3).fill('Bearer at_test_1');
    expect(apiCalls.map((call) => call.headers.get('authorization'))).toEqual([...firstToken, 'Bearer at_test_2']);
  });

  test('POSTs get one generated Idempotency-Key, reused by the retries of a 503', async () => {
    const unavailable = errorReply('maintenance', {'Retry-After': '0'});
    const {apiCalls} = scriptFetch((_call, index) =>
      index === 0 ? unavailable : {status: 201, body: {id: 'top_01JC2M4R7T'}},
    );
    // The waits the client asks timers for are recorded and run at once: the backoff is read, not waited for
    // (a call's own timeout, set here, is left as it is).
    const timeoutMs = 30_000;
    const delays: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    globalThis.setTimeout = ((callback: () => void, ms = 0) => {
      if (ms === timeoutMs) return realSetTimeout(callback, ms);
      delays.push(ms);
      return realSetTimeout(callback, 0);
    }) as typeof setTimeout;
    let topup;
    try {
      topup = await client({maxRetries: 1, timeoutMs}).topups.create(ICCID, {packageId: 'jp-3gb-15d'});
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    expect(topup.id).toBe('top_01JC2M4R7T');
    // One backoff before the retry: 0.5 s plus up to a quarter of jitter (Retry-After: 0 asks for no more).
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(500);
    expect(delays[0]).toBeLessThanOrEqual(625);
    const [first, second] = apiCalls.map((call) => call.headers.get('idempotency-key'));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    expect(apiCalls[0]!.url.pathname).toBe('/v1/esims/8944000000123456783/topups');

    const {apiCalls: own} = scriptFetch(() => ({status: 201, body: {id: 'rfd_1'}}));
    await client().refunds.create({iccid: ICCID, reason: 'customer_cancelled'}, {idempotencyKey: 'key-1'});
    expect(own[0]!.headers.get('idempotency-key')).toBe('key-1');
    expect(JSON.parse(own[0]!.body!)).toEqual({iccid: ICCID, reason: 'customer_cancelled'});
  });

  test('errors map from the envelope to the classes by HTTP status', async () => {
    const replies: Record<string, Reply> = {
      balance: errorReply('insufficient_balance'),
      limited: errorReply('rate_limited', {'Retry-After': '7'}),
    };
    scriptFetch((call) => replies[call.url.pathname.split('/').pop()!]!);
    const acme = client();

    const balance = await settled(acme.orders.retrieve('balance'));
    expect(balance).toBeInstanceOf(sdk.InsufficientBalanceError);
    expect(balance).toBeInstanceOf(AcmeConnectError);
    expect(balance).toMatchObject({
      status: 402,
      code: 'insufficient_balance',
      requestId: 'req_insufficient_balance',
      message: 'insufficient_balance happened',
    });
    const limited = await settled(acme.orders.retrieve('limited'));
    expect(limited).toBeInstanceOf(sdk.RateLimitError);
    expect((limited as sdk.RateLimitError).retryAfter).toBe(7);
    await expect(acme.esims.retrieve(8944000000 as unknown as string)).rejects.toThrow(
      /iccid must be a non-empty string/,
    );
  });

  test('network errors and timeouts become ConnectionError; token errors use the OAuth error', async () => {
    scriptFetch(() => 'network-error');
    await expect(client().esims.getUsage(ICCID)).rejects.toMatchObject({
      name: 'ConnectionError',
      status: null,
    });
    scriptFetch(() => 'hang');
    const timedOut = await settled(client({timeoutMs: 50}).esims.getUsage(ICCID));
    expect(timedOut).toBeInstanceOf(sdk.ConnectionError);
    expect((timedOut as Error).message).toContain('50 ms');

    /** The error a call throws when the token endpoint answers `status` with an RFC 6749 `error`. */
    const tokenRefusal = (status: number, error: string, description: string) => {
      scriptFetch(
        () => ({}),
        () => ({status, body: {error, error_description: description}}),
      );
      return settled(client().esims.getUsage(ICCID));
    };
    const rejected = await tokenRefusal(401, 'invalid_client', 'Client authentication failed.');
    expect(rejected).toBeInstanceOf(AuthenticationError);
    expect(rejected).toMatchObject({code: 'invalid_client', message: 'Client authentication failed.', retry: null});

    // An API code in the token endpoint's RFC 6749 format (no `retry` field) takes the API's policy.
    const mismatch = await tokenRefusal(403, 'environment_mismatch', 'This client ID belongs to Live.');
    expect(mismatch).toMatchObject({code: 'environment_mismatch', retry: errorRule('environment_mismatch').retry});
  });

  test('a token request answered 429 (RFC 6749 body, no retry field) waits Retry-After and is sent again', async () => {
    const limited = {error: 'rate_limited', error_description: 'Slow down.'};
    const {calls} = scriptFetch(
      () => ({body: {id: PACKAGE}}),
      (index) => (index === 0 ? {status: 429, headers: {'Retry-After': '0'}, body: limited} : newToken(index)),
    );
    await expect(client({maxRetries: 1}).packages.retrieve(PACKAGE)).resolves.toEqual({id: PACKAGE});
    expect(calls.map((call) => call.url.pathname)).toEqual(['/oauth/token', '/oauth/token', '/v1/packages/jp-5gb-30d']);
  });
});

// Against the local sandbox, whose error answers carry the behaviour model's `retry` field.
test.describe('retries follow the behaviour model, against the sandbox', () => {
  const API_ORIGIN = new URL(ENVIRONMENTS.sandbox.apiBase).origin;
  const MAX_RETRIES = 2;
  let sandbox: Sandbox;
  let scopes: string[];
  /** The codes the model says an order can answer: the sandbox forces only those on it. */
  let orderCodes: ErrorRule[];
  const credentials: SandboxCredential[] = [];

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    const document = await publishedContract();
    scopes = documentScopes(document);
    const ordering = listOperations(document).find(({method, path}) => `${method} ${path}` === 'POST /v1/orders')!;
    orderCodes = errorCodesOf(operationFacts(document, ordering.method, ordering.path, ordering.operation));
    // The API rate limit has its own tests; the token endpoint keeps its documented limit.
    sandbox = await startSandbox({credentials: [], requestsPerMinute: 100_000});
  });

  test.afterAll(() => sandbox?.close());

  /** A client with its own sandbox credential (its own state and token limit). */
  function newClient(options: ClientOptions = {}) {
    const index = credentials.length + 1;
    const credential = {clientId: `ci_test_sdk_${index}`, clientSecret: `cs_test_sdk_${index}`, scopes};
    credentials.push(credential);
    sandbox.setCredentials([...credentials]);
    const {clientId, clientSecret} = credential;
    return {credential, clientId, acme: new AcmeConnect({clientId, clientSecret, environment: 'sandbox', ...options})};
  }

  /** What the test does to one API call: force an error answer, or lose the answer after the sandbox sent it. */
  type Plan = {forceError?: string; loseAnswer?: boolean};
  type Sent = {key: string | null; status: number; replayed: boolean; body?: unknown};

  // Sends the SDK's calls to the local sandbox, applying `plan(clientId, index)` to each client's index-th API call;
  // records per client its token requests and its API calls as answered.
  function route(plan: (clientId: string, index: number) => Plan) {
    const clientOfToken = new Map<string, string>();
    const tokenRequests = new Map<string, number>();
    const apiCalls = new Map<string, Sent[]>();
    globalThis.fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = new URL(String(input));
      expect(url.origin).toBe(API_ORIGIN);
      const local = `${sandbox.origin}${url.pathname}${url.search}`;
      if (url.pathname === TOKEN_URL_PATH) {
        const clientId = new URLSearchParams(String(init.body)).get('client_id')!;
        tokenRequests.set(clientId, (tokenRequests.get(clientId) ?? 0) + 1);
        const response = await originalFetch(local, init);
        if (response.ok) {
          clientOfToken.set(((await response.clone().json()) as {access_token: string}).access_token, clientId);
        }
        return response;
      }
      const headers = new Headers(init.headers);
      const clientId = clientOfToken.get((headers.get('authorization') ?? '').replace(/^Bearer /, '')) ?? '?';
      const calls = apiCalls.get(clientId) ?? [];
      apiCalls.set(clientId, calls);
      const {forceError, loseAnswer} = plan(clientId, calls.length);
      if (forceError) headers.set(SANDBOX.errorHeader, forceError);
      // A lost answer is awaited in full, so that the sandbox has done the work before the SDK's timeout.
      const response = await originalFetch(local, {...init, headers, signal: loseAnswer ? null : init.signal});
      const sent: Sent = {
        key: headers.get('idempotency-key'),
        status: response.status,
        replayed: response.headers.get('idempotent-replayed') === 'true',
      };
      calls.push(sent);
      if (!loseAnswer) return response;
      sent.body = await response.json();
      return new Promise<Response>((_resolve, reject) => {
        const abort = () => reject(new DOMException('The operation was aborted', 'AbortError'));
        if (init.signal?.aborted) abort();
        else init.signal?.addEventListener('abort', abort);
      });
    }) as typeof fetch;
    return {
      tokenRequests: (clientId: string) => tokenRequests.get(clientId) ?? 0,
      apiCalls: (clientId: string) => apiCalls.get(clientId) ?? [],
    };
  }

  const orderParams = {packageId: SAMPLES.packageId, quantity: 1};
  const sdkClass = (name: string) => (sdk as unknown as Record<string, new (...args: never[]) => unknown>)[name]!;

  test(`every error code an order can answer, forced by ${SANDBOX.errorHeader} on every attempt: retried iff its policy is automatic, once with a new token for new_token, thrown as its sdkClass (every class and policy among them); on the first attempt only: automatic and new_token codes end in the order, after any other the caller sends again, with a new key if the error is stored`, async () => {
    expect(new Set(orderCodes.map((rule) => rule.sdkClass))).toEqual(new Set(ERROR_CODES.map((rule) => rule.sdkClass)));
    expect(new Set(orderCodes.map((rule) => rule.retry))).toEqual(new Set(ERROR_CODES.map((rule) => rule.retry)));
    /** The code each client's calls are answered with, on its first call only or on all. */
    const forced = new Map<string, {code: string; firstOnly: boolean}>();
    const wire = route((clientId, index) => {
      const {code, firstOnly} = forced.get(clientId) ?? {};
      return {forceError: firstOnly && index > 0 ? undefined : code};
    });
    const clientFor = (rule: ErrorRule, firstOnly: boolean) => {
      const {clientId, acme} = newClient({maxRetries: MAX_RETRIES});
      forced.set(clientId, {code: rule.code, firstOnly});
      return {clientId, acme, calls: () => wire.apiCalls(clientId)};
    };
    const onEveryAttempt = async (rule: ErrorRule) => {
      const {clientId, acme, calls} = clientFor(rule, false);
      const error = await settled(acme.orders.create(orderParams));
      const renewsToken = rule.retry === 'new_token';
      expect(error, rule.code).toBeInstanceOf(sdkClass(rule.sdkClass));
      expect(error, rule.code).toMatchObject({status: rule.status, code: rule.code, retry: rule.retry});
      const expected = RETRY_POLICIES[rule.retry].automatic ? 1 + MAX_RETRIES : renewsToken ? 2 : 1;
      const statuses = calls().map((call) => call.status);
      expect(statuses, `${rule.code}: API requests`).toEqual(Array(expected).fill(rule.status));
      expect(wire.tokenRequests(clientId), `${rule.code}: token requests`).toBe(renewsToken ? 2 : 1);
      expect(new Set(calls().map((call) => call.key)).size, `${rule.code}: one Idempotency-Key`).toBe(1);
      // The error carries the key the SDK made, so the caller can send the same purchase again.
      expect(error, `${rule.code}: the key on the error`).toHaveProperty('idempotencyKey', calls()[0]!.key);
    };
    const onTheFirstAttempt = async (rule: ErrorRule) => {
      const {acme, calls} = clientFor(rule, true);
      const key = `sdk-first-attempt-${rule.code}`;
      const first = await settled(acme.orders.create(orderParams, {idempotencyKey: key}));
      // A stored error would be replayed under its key: once fixed, the caller sends a new one.
      const secondKey = IDEMPOTENCY.isStored(rule.status, rule.code) ? `${key}-fixed` : key;
      const second = await acme.orders.create(orderParams, {idempotencyKey: secondKey});
      const recovers = RETRY_POLICIES[rule.retry].automatic || rule.retry === 'new_token';
      // Recovered: the caller's second send is the first order, replayed.
      expect(calls().map((call) => [call.status, call.replayed])).toEqual([
        [rule.status, false],
        [201, false],
        ...(recovers ? [[201, true]] : []),
      ]);
      if (recovers) {
        expect(first, rule.code).toMatchObject({status: 'completed'});
        expect(second).toEqual(first);
      } else {
        expect(first, rule.code).toBeInstanceOf(sdkClass(rule.sdkClass));
        expect(second).toMatchObject({status: 'completed'});
      }
      const keys = recovers || !IDEMPOTENCY.isStored(rule.status, rule.code) ? [key] : [key, `${key}-fixed`];
      expect(new Set(calls().map((call) => call.key))).toEqual(new Set(keys));
    };
    await Promise.all(orderCodes.flatMap((rule) => [onEveryAttempt(rule), onTheFirstAttempt(rule)]));
  });

  test('an order whose answer is lost to the timeout, retried into 409 idempotency_in_progress, resolves to the first attempt’s order', async () => {
    const plans: Plan[] = [{loseAnswer: true}, {forceError: 'idempotency_in_progress'}, {}];
    expect(errorRule('idempotency_in_progress').retry).toBe('same_key');
    const wire = route((_clientId, index) => plans[index] ?? {});
    const {clientId, acme} = newClient({maxRetries: MAX_RETRIES, timeoutMs: 3_000});
    const order = await acme.orders.create(orderParams);
    const calls = wire.apiCalls(clientId);
    expect(calls.map((call) => [call.status, call.replayed])).toEqual([
      [201, false],
      [409, false],
      [201, true],
    ]);
    expect(new Set(calls.map((call) => call.key)).size).toBe(1);
    expect(order.id).toBe((calls[0]!.body as {id: string}).id);
    expect(order.status).toBe('completed');
  });

  test('after 403 insufficient_scope the token is dropped: once the credential has the scope, the next call succeeds', async () => {
    expect(errorRule('insufficient_scope').retry).toBe('after_fix');
    const wire = route(() => ({}));
    const {credential, clientId, acme} = newClient({maxRetries: MAX_RETRIES});
    credential.scopes = ['catalog:read'];
    sandbox.setCredentials([...credentials]);
    const idempotencyKey = randomUUID();
    const error = await settled(acme.orders.create(orderParams, {idempotencyKey}));
    expect(error).toMatchObject({status: 403, code: 'insufficient_scope', retry: 'after_fix'});
    expect(wire.apiCalls(clientId)).toHaveLength(1);

    credential.scopes = scopes;
    sandbox.setCredentials([...credentials]);
    const order = await acme.orders.create(orderParams, {idempotencyKey});
    expect(order.status).toBe('completed');
    expect(wire.tokenRequests(clientId)).toBe(2);
  });

  test('concurrent first calls of a new client make one token request', async () => {
    // More calls than the token endpoint allows per minute: a second token request would show as a 429.
    const concurrent = LIMITS.tokenRequestsPerMinute + 2;
    const wire = route(() => ({}));
    const {clientId, acme} = newClient({maxRetries: 0});
    const packages = await Promise.all(
      Array.from({length: concurrent}, () => acme.packages.retrieve(SAMPLES.packageId)),
    );
    expect(packages.map((pkg) => pkg.id)).toEqual(Array(concurrent).fill(SAMPLES.packageId));
    expect(wire.tokenRequests(clientId)).toBe(1);
    expect(wire.apiCalls(clientId)).toHaveLength(concurrent);
  });

  test('the SDK page’s CommonJS sample runs as pasted in a CommonJS project', async () => {
    const page = readFileSync(path.join(ROOT, 'docs/basics/sdk.mdx'), 'utf8');
    const blocks = [...page.matchAll(/^```js norun="[^"]*"\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
    const sample = blocks.find((code) => code.includes("require('@acme-connect/sdk')"));
    expect(sample, "a js block with require('@acme-connect/sdk')").toBeDefined();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sdk-cjs-'));
    try {
      // A project without "type": "module": the file is CommonJS, as in a reader's default project.
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({name: 'reader-project', private: true}));
      mkdirSync(path.join(dir, 'node_modules/@acme-connect'), {recursive: true});
      symlinkSync(SDK_DIR, path.join(dir, 'node_modules/@acme-connect/sdk'), 'dir');
      writeFileSync(path.join(dir, 'index.js'), sample!);
      const {clientId, clientSecret} = newClient().credential;
      const routed = {PATH: process.env.PATH, ACME_SANDBOX_ORIGIN: sandbox.origin, ACME_SANDBOX_API_ORIGIN: API_ORIGIN};
      const shim = ['--import', path.join(ROOT, 'sandbox/route/node.mjs')];
      const {stdout} = await promisify(execFile)(process.execPath, [...shim, 'index.js'], {
        cwd: dir,
        env: {...routed, ACME_CLIENT_ID: clientId, ACME_CLIENT_SECRET: clientSecret},
      });
      expect(stdout).toContain(SAMPLES.packageId);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('a wrong client secret is AuthenticationError invalid_client, thrown at once', async () => {
    const wire = route(() => ({}));
    const {clientId, acme} = newClient({clientSecret: 'cs_test_wrong', maxRetries: MAX_RETRIES});
    const error = await settled(acme.packages.retrieve(SAMPLES.packageId));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({status: 401, code: 'invalid_client', retry: null});
    expect(wire.tokenRequests(clientId)).toBe(1);
    expect(wire.apiCalls(clientId)).toEqual([]);
  });
});

test.describe('webhooks.constructEvent', () => {
  const secret = 'whsec_test_EXAMPLE_ONLY_not_a_real_secret';
  const body = JSON.stringify({
    id: 'evt_01JC7Q2RTV',
    type: 'esim.usage_threshold',
    api_version: 'v1',
    created_at: '2025-03-20T06:12:04Z',
    livemode: false,
    data: {
      object: {iccid: ICCID, status: 'active', profile_state: 'enabled', metadata: {trip_code: 'TYO'}},
      threshold: 80,
    },
  });
  const sign = (timestamp: number, payload: string, key = secret) =>
    `v1=${createHmac('sha256', key).update(`${timestamp}.${payload}`).digest('hex')}`;
  const headers = (timestamp: number | string, signature: string) => ({
    'X-Webhook-Timestamp': String(timestamp),
    'X-Webhook-Signature': signature,
  });
  const signed = (timestamp: number, payload = body, key = secret) => headers(timestamp, sign(timestamp, payload, key));
  const now = () => Math.floor(Date.now() / 1000);
  const acme = client();

  test('accepts a correctly signed body (string or bytes, plain or Headers, any case, rotated secrets)', () => {
    const timestamp = now();
    expect(acme.webhooks.constructEvent(body, signed(timestamp), secret)).toEqual({
      id: 'evt_01JC7Q2RTV',
      type: 'esim.usage_threshold',
      apiVersion: 'v1',
      createdAt: '2025-03-20T06:12:04Z',
      livemode: false,
      data: {
        object: {iccid: ICCID, status: 'active', profileState: 'enabled', metadata: {trip_code: 'TYO'}},
        threshold: 80,
      },
    });

    const rotated = new Headers({
      'x-webhook-timestamp': String(timestamp),
      'x-webhook-signature': `${sign(timestamp, body, 'whsec_old')} ${sign(timestamp, body)}`,
    });
    expect(acme.webhooks.constructEvent(Buffer.from(body), rotated, secret).id).toBe('evt_01JC7Q2RTV');
    const bytes = new TextEncoder().encode(body);
    const mixedCase = {'x-webhook-timestamp': [String(timestamp)], 'X-WEBHOOK-SIGNATURE': sign(timestamp, body)};
    expect(acme.webhooks.constructEvent(bytes, mixedCase, secret).type).toBe('esim.usage_threshold');
  });

  test('rejects a wrong signature, a changed body, a stale timestamp, missing headers and parsed JSON', () => {
    const timestamp = now();
    // The clock held at the signing time: a second ticking by mid-test would bring the future timestamp in tolerance.
    const realNow = Date.now;
    Date.now = () => timestamp * 1000;
    try {
      const reject = (rawBody: string, signedHeaders: Record<string, string>, message: RegExp) =>
        expect(() => acme.webhooks.constructEvent(rawBody, signedHeaders, secret)).toThrow(message);

      reject(body, signed(timestamp, body, 'whsec_wrong'), /No X-Webhook-Signature value matches/);
      reject(body.replace('80', '50'), signed(timestamp), /No X-Webhook-Signature value matches/);
      reject(body, headers(timestamp, `v0=${sign(timestamp, body).slice(3)}`), /Missing X-Webhook-Signature/);
      reject(body, signed(timestamp - 301), /more than 300 s/);
      reject(body, signed(timestamp + 301), /more than 300 s/);
      reject(body, {'X-Webhook-Signature': sign(timestamp, body)}, /X-Webhook-Timestamp/);
      reject(JSON.parse(body) as string, signed(timestamp), /raw request body/);
      const unsigned = () => acme.webhooks.constructEvent(body, {}, secret);
      expect(unsigned).toThrow(SignatureVerificationError);
      expect(unsigned).toThrow(AcmeConnectError);
      // Within the tolerance is accepted.
      expect(acme.webhooks.constructEvent(body, signed(timestamp - 290), secret).id).toBe('evt_01JC7Q2RTV');
    } finally {
      Date.now = realNow;
    }
  });

  test("accepts the docs' test vector at its timestamp, and rejects it altered", async () => {
    const {event, timestamp, signature} = SAMPLES.webhookTestVector;
    const examples = webhookEventExamples(await publishedContract());
    const vector = JSON.stringify(examples.find(({type}) => type === event)!.payload);
    // Its clock set to the vector's timestamp, as the docs show; on the local clock the vector is stale.
    const clock = new Date(Number(timestamp) * 1000);
    const verify = (rawBody: string, ts: string, sig: string, options: {now?: Date} = {now: clock}) =>
      acme.webhooks.constructEvent(rawBody, headers(ts, `v1=${sig}`), SAMPLES.webhookSecret, options);
    expect(verify(vector, timestamp, signature).type).toBe(event);
    expect(() => verify(vector, timestamp, signature, {})).toThrow(/from the local clock/);
    for (const [rawBody, ts, sig] of [
      [vector.replace('9350', '9351'), timestamp, signature],
      [vector, String(Number(timestamp) + 1), signature],
      [vector, timestamp, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`],
    ]) {
      expect(() => verify(rawBody!, ts!, sig!)).toThrow(SignatureVerificationError);
    }
  });
});

test.describe('the SDK surface (lib/sdk-surface.ts)', () => {
  test('extracts a row for every method, in order, each implemented and its endpoint an operation of the OpenAPI document; states its coverage: every operation is an SDK method, the token request, or HTTP only', async () => {
    const rows = extractSdkMethods(DECLARATION);
    const constructEvent = 'acme.webhooks.constructEvent(rawBody, headers, secret, options)';
    expect(rows.map((row) => row.call)).toEqual([
      'acme.packages.list(params)',
      'acme.packages.retrieve(id)',
      'acme.orders.create(params, options)',
      'acme.orders.retrieve(orderId)',
      'acme.esims.retrieve(iccid)',
      'acme.esims.getUsage(iccid)',
      'acme.topups.create(iccid, params, options)',
      'acme.refunds.create(params, options)',
      constructEvent,
    ]);
    const document = await publishedContract();
    const operations = new Set(listOperations(document).map(({method, path: apiPath}) => `${method} ${apiPath}`));
    const acme = client() as unknown as Record<string, Record<string, unknown>>;
    for (const row of rows) {
      expect(row.summary, row.call).not.toBe('');
      if (row.endpoint !== null) expect(operations, `${row.call}: ${row.endpoint}`).toContain(row.endpoint);
      const [, resource, method] = /^acme\.(\w+)\.(\w+)\(/.exec(row.call)!;
      expect(typeof acme[resource!]?.[method!], `the runtime implements ${row.call}`).toBe('function');
    }
    expect(rows.filter((row) => row.endpoint === null).map((row) => row.call)).toEqual([constructEvent]);

    const coverage = sdkCoverage(rows, document);
    const endpoints = new Set(rows.map((row) => row.endpoint).filter(Boolean));
    expect(coverage.total).toBe(listOperations(document).length);
    expect(coverage.covered).toBe(endpoints.size + 1);
    expect(coverage.httpOnly).toHaveLength(coverage.total - coverage.covered);
    for (const {operation} of coverage.httpOnly) {
      expect(endpoints.has(operation), operation).toBe(false);
    }
    console.log(`SDK coverage: ${coverage.covered} of ${coverage.total} operations (token request included)`);
    expect(() =>
      sdkCoverage([...rows, {call: 'acme.x.y()', endpoint: 'GET /v1/nothing', summary: 'x'}], document),
    ).toThrow(/acme\.x\.y\(\) names @endpoint GET \/v1\/nothing, which is not an operation/);
  });

  test('refuses a declaration without the class or with a malformed @endpoint', () => {
    expect(() => extractSdkMethods('export declare class Other {}')).toThrow(/declares no class AcmeConnect/);
    const bad =
      'export interface R {\n  /**\n   * Get it.\n   * @endpoint FETCH it\n   */\n  get(id: string): void;\n}\nexport declare class AcmeConnect { readonly r: R; }';
    expect(() => extractSdkMethods(bad)).toThrow(/R\.get \(sdk\/index\.d\.ts:6\).*FETCH it/);
  });
});

test.describe('the declaration under strict mode', () => {
  const preamble = `
import { AcmeConnect, AcmeConnectError, InvalidRequestError, RateLimitError, SignatureVerificationError } from '@acme-connect/sdk';
const acme = new AcmeConnect({ clientId: process.env.ACME_CLIENT_ID!, clientSecret: process.env.ACME_CLIENT_SECRET!, environment: 'sandbox', timeoutMs: 30_000, maxRetries: 2 });
`;

  const valid = `
export async function main(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<void> {
  for await (const pkg of acme.packages.list({ country: 'JP', region: 'ASIA', type: 'local', minDataMb: 3072, limit: 50 })) {
    const price: number = pkg.wholesalePrice.amount;
    console.log(pkg.id, pkg.dataMb ?? 'unlimited', pkg.validityDays, price, pkg.suggestedRetailPrice.currency);
  }
  const pkg = await acme.packages.retrieve('jp-5gb-30d');
  const order = await acme.orders.create(
    { packageId: pkg.id, quantity: 1, customerReference: 'booking-88412', deliverToEmail: 'a@example.org', metadata: { trip: 'TYO-2025' } },
    { idempotencyKey: '3f6c2a7e-9b1d-4c8e-a5f2-7d0e4b9c1a26' },
  );
  const again = await acme.orders.retrieve(order.id);
  const iccid: string = again.esims[0]!.iccid;
  const esim = await acme.esims.retrieve(iccid);
  const { lpaString, qrCodeUrl, iosInstallUrl, smdpAddress, matchingId } = esim.activation;
  console.log(esim.status, esim.profileState, lpaString, qrCodeUrl, iosInstallUrl, smdpAddress, matchingId, esim.apn.mode);
  const usage = await acme.esims.getUsage(iccid);
  console.log(usage.dataUsedMb, usage.dataTotalMb, usage.expiresAt);
  const topup = await acme.topups.create(iccid, { packageId: 'jp-3gb-15d' });
  console.log(topup.id, topup.status, topup.price.amount);
  const refund = await acme.refunds.create({ iccid, reason: 'customer_cancelled' }, { idempotencyKey: 'k' });
  console.log(refund.id, refund.amount.amount);
  try {
    await acme.orders.create({ packageId: 'jp-5gb-30d' });
  } catch (err) {
    if (err instanceof RateLimitError) console.log(err.retryAfter ?? 1);
    else if (err instanceof InvalidRequestError && err.code === 'package_unavailable') console.log(err.requestId);
    else if (err instanceof AcmeConnectError) console.log(err.status, err.code);
  }
  let event;
  try {
    event = acme.webhooks.constructEvent(rawBody, headers, 'whsec_x');
  } catch (err) {
    if (err instanceof SignatureVerificationError) return;
    throw err;
  }
  acme.webhooks.constructEvent('{}', new Headers(), 'whsec_x');
  switch (event.type) {
    case 'order.completed': console.log(event.data.object.id, event.data.object.esims.length); break;
    case 'esim.usage_threshold': console.log(event.data.object.iccid, event.data.threshold); break;
    case 'balance.low': console.log(event.data.object.available.amount); break;
    default: console.log(event.id, event.apiVersion, event.createdAt, event.livemode);
  }
}
`;

  const invalid = {
    'a method the SDK does not have': ['acme.orders.list();', /Property 'list' does not exist/],
    'a snake_case param': ["acme.orders.create({ package_id: 'jp-5gb-30d' });", /package_id/],
    'a misspelt list filter': ['acme.packages.list({ minDataMB: 3072 });', /minDataMB/],
    'an ICCID as a number': [
      'acme.esims.retrieve(8944000000123456783);',
      /not assignable to parameter of type 'string'/,
    ],
    'a free-text refund reason': [
      "acme.refunds.create({ iccid: '8944000000123456783', reason: 'Trip cancelled' });",
      /RefundReason/,
    ],
    'an unknown environment': [
      "new AcmeConnect({ clientId: 'a', clientSecret: 'b', environment: 'production' });",
      /"production"/,
    ],
    'a snake_case result field': ["acme.packages.retrieve('x').then((pkg) => pkg.wholesale_price);", /wholesale_price/],
    'the threshold on another event type': [
      "const e = acme.webhooks.constructEvent('', {}, 's'); if (e.type === 'esim.activated') console.log(e.data.threshold);",
      /threshold/,
    ],
  } as const;

  test('a program using the documented surface compiles, and every misuse in the table does not', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sdk-types-'));
    try {
      // One compilation for all programs: lib.dom and @types/node load once.
      const files = Object.entries({valid: [valid], ...invalid}).map(([name, [code]], index) => {
        const file = path.join(dir, `program${index}.ts`);
        writeFileSync(file, `${preamble}${code}\nexport {};\n`);
        return {name, file};
      });
      const program = ts.createProgram(
        files.map(({file}) => file),
        {
          strict: true,
          noEmit: true,
          target: ts.ScriptTarget.ES2022,
          lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
          module: ts.ModuleKind.ESNext,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
          paths: {'@acme-connect/sdk': [DECLARATION_PATH]},
        },
      );
      // Only the declaration and the programs are checked: the libraries they load took most of the time.
      const messages = (diagnostics: readonly ts.Diagnostic[]) =>
        diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      const problemsOf = (file: string) => {
        const source = program.getSourceFile(file)!;
        return messages([...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]);
      };
      const [surface, ...misuses] = files;
      expect
        .soft(
          [...messages(program.getOptionsDiagnostics()), ...problemsOf(DECLARATION_PATH), ...problemsOf(surface!.file)],
          'a program using the documented surface compiles',
        )
        .toEqual([]);
      for (const {name, file} of misuses) {
        const [code, message] = invalid[name as keyof typeof invalid];
        expect.soft(problemsOf(file).join('\n'), `rejects ${name}: no error for ${code}`).toMatch(message);
      }
      expect(messages(program.getGlobalDiagnostics())).toEqual([]);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
