// The built OpenAPI document validates, the generated Postman collection runs against a Prism mock of it, and every
// curl sample and endpoint path in docs/ (constants resolved) matches it. Plain Node: no browser.
import {existsSync, readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';
import {createConfig, lintFromString} from '@redocly/openapi-core';
import newman, {type NewmanRunSummary} from 'newman';
import {parse} from 'yaml';

import * as api from '../src/constants/api';
import {ARTIFACTS, ENVIRONMENTS, LIMITS, POSTMAN, SAMPLES} from '../src/constants/api';
import {BRAND, SITE} from '../src/constants/site';
import {IDEMPOTENCY} from '../src/constants/behaviour';
import {generateArtifacts} from '../lib/contract/artifacts';
import {
  listOperations,
  matchesTemplate,
  resolveRef,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
} from '../lib/contract/openapi';
import type {PostmanCollection, PostmanEnvironment} from '../lib/contract/postman';
import {startPrism} from '../sandbox/server';
import {BUILD_DIR} from './support/docs';

const ROOT = path.resolve(__dirname, '..');

/** The endpoint table of the domain brief (§4), the independent expectation for the document. */
const BRIEF_ENDPOINTS = [
  'POST /oauth/token',
  'GET /v1/destinations',
  'GET /v1/packages',
  'GET /v1/packages/{package_id}',
  'POST /v1/orders',
  'GET /v1/orders',
  'GET /v1/orders/{order_id}',
  'POST /v1/orders/{order_id}/cancel',
  'GET /v1/esims',
  'GET /v1/esims/{iccid}',
  'PATCH /v1/esims/{iccid}',
  'GET /v1/esims/{iccid}/usage',
  'GET /v1/esims/{iccid}/topup-packages',
  'POST /v1/esims/{iccid}/topups',
  'POST /v1/esims/{iccid}/suspend',
  'POST /v1/esims/{iccid}/resume',
  'POST /v1/refunds',
  'GET /v1/balance',
  'GET /v1/webhook-endpoints',
  'POST /v1/webhook-endpoints',
  'DELETE /v1/webhook-endpoints/{id}',
  'POST /v1/webhook-endpoints/{id}/test',
  'POST /v1/widget-sessions',
  'POST /v1/sandbox/esims/{iccid}/simulate',
];

const BRIEF_ERROR_CODES = [
  'invalid_request',
  'validation_failed',
  'missing_token',
  'invalid_token',
  'token_expired',
  'insufficient_balance',
  'credit_limit_reached',
  'insufficient_scope',
  'environment_mismatch',
  'ip_not_allowed',
  'account_suspended',
  'package_not_found',
  'order_not_found',
  'esim_not_found',
  'idempotency_key_reused',
  'idempotency_in_progress',
  'package_unavailable',
  'topup_not_allowed',
  'esim_not_refundable',
  'order_not_cancellable',
  'provisioning_failed',
  'rate_limited',
  'internal_error',
  'upstream_unavailable',
  'maintenance',
];

const BRIEF_SCOPES = [
  'catalog:read',
  'orders:read',
  'orders:write',
  'esims:read',
  'esims:write',
  'refunds:write',
  'billing:read',
  'webhooks:manage',
  'widget:sessions',
];

const BRIEF_FOLDERS = [
  '00 Auth',
  '01 Catalogue',
  '02 Orders',
  '03 eSIMs & activation',
  '04 Usage & top-ups',
  '05 Refunds & balance',
  '06 Webhooks',
  '07 Widget sessions',
  '08 Sandbox simulation',
];

function readBuilt(urlPath: string): string {
  const file = path.join(BUILD_DIR, ...urlPath.split('/'));
  if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run \`npx docusaurus build\` first`);
  return readFileSync(file, 'utf8');
}

let builtDocument: OpenApiDocument | undefined;
const loadDocument = () => (builtDocument ??= parse(readBuilt(ARTIFACTS.openapi)) as OpenApiDocument);
const loadCollection = () => JSON.parse(readBuilt(ARTIFACTS.postmanCollection)) as PostmanCollection;
const loadEnvironment = (urlPath: string) => JSON.parse(readBuilt(urlPath)) as PostmanEnvironment;

test.describe('OpenAPI document (build/openapi.yaml)', {tag: '@viewport-independent'}, () => {
  test('is served at ARTIFACTS.openapi and is exactly what the plugin generates now', async () => {
    const fresh = await generateArtifacts(readFileSync(path.join(ROOT, 'api/openapi.yaml'), 'utf8'));
    for (const [urlPath, content] of fresh) expect(readBuilt(urlPath), `${urlPath} is stale: rebuild`).toBe(content);
    expect([...fresh.keys()].sort()).toEqual(Object.values(ARTIFACTS).sort());
  });

  test('validates with Redocly (OpenAPI 3.1, recommended rules, examples checked against schemas)', async () => {
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        'no-server-example.com': 'off', // The brief's hosts are example.com placeholders on purpose.
        'info-license': 'off', // A fictional partner API: no public licence.
        'no-invalid-media-type-examples': {severity: 'error', allowAdditionalProperties: false},
        'no-invalid-parameter-examples': 'error',
        'no-invalid-schema-examples': 'error',
      },
    });
    const problems = await lintFromString({
      source: readBuilt(ARTIFACTS.openapi),
      absoluteRef: path.join(BUILD_DIR, 'openapi.yaml'),
      config,
    });
    const messages = problems.map(
      (problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
    );
    expect(messages).toEqual([]);
  });

  test('has the title, servers and OAuth2 client-credentials scheme from the constants, the error envelope with every code, and rate-limit, request-id and idempotency headers', () => {
    const document = loadDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe(`${BRAND} API`);
    expect(document.servers.map((server) => server.url)).toEqual(
      Object.values(ENVIRONMENTS).map((environment) => new URL(environment.apiBase).origin),
    );
    const scheme = document.components.securitySchemes!.oauth2 as {type: string; flows: Record<string, object>};
    const flow = scheme.flows.clientCredentials as {tokenUrl: string; scopes: object};
    expect(scheme.type).toBe('oauth2');
    expect(flow.tokenUrl).toBe(ENVIRONMENTS.sandbox.tokenUrl);
    // A writer may add more.
    const scopes = Object.keys(flow.scopes).filter((scope) => BRIEF_SCOPES.includes(scope));
    expect(scopes, "the brief's scopes in its order").toEqual(BRIEF_SCOPES);
    const schemas = document.components.schemas as Record<string, {enum?: string[]}>;
    expect(schemas.ErrorCode!.enum).toEqual(expect.arrayContaining(BRIEF_ERROR_CODES));
    const headers = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'];
    expect(Object.keys(document.components.headers!)).toEqual(expect.arrayContaining(headers));
    const orders = document.paths['/v1/orders']!.post as OpenApiOperation;
    const responses = orders.responses as Record<string, {headers: object}>;
    const idempotency = orders.parameters!.map((parameter) => resolveRef<OpenApiParameter>(document, parameter));
    expect(idempotency).toContainEqual(expect.objectContaining({name: 'Idempotency-Key', required: true}));
    // Sent only on a replay: the key's description names it, no response declares it (a mock sends those always).
    expect(idempotency.find((parameter) => parameter.name === 'Idempotency-Key')).toMatchObject({
      description: expect.stringContaining(`${IDEMPOTENCY.replayHeader}: true`),
    });
    expect(Object.keys(responses['201']!.headers)).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit']),
    );
    expect(Object.keys(resolveRef(document, responses['429']!).headers)).toContain('Retry-After');
    const limit = resolveRef(document, document.components.parameters!.Limit) as {schema: object};
    expect(limit.schema).toMatchObject({maximum: LIMITS.pageSizeMax, default: LIMITS.pageSizeDefault});
  });

  test('describes every endpoint of the brief; every operation has an example response and a description, every parameter a description, every array schema says what it holds', () => {
    const document = loadDocument();
    const operations = listOperations(document);
    // Operations a writer adds are welcome too.
    expect(operations.map(({method, path: apiPath}) => `${method} ${apiPath}`)).toEqual(
      expect.arrayContaining(BRIEF_ENDPOINTS),
    );
    const missing: string[] = [];
    for (const {method, path: apiPath, operation} of operations) {
      const where = `${method} ${apiPath}`;
      const responses = operation.responses as Record<string, unknown>;
      const success = Object.keys(responses).find((status) => status.startsWith('2'))!;
      const response = resolveRef(document, responses[success]) as {content?: Record<string, Record<string, unknown>>};
      const media = response.content?.['application/json'];
      if (success !== '204' && !(media?.example ?? media?.examples)) missing.push(`${where}: example`);
      if (!operation.description) missing.push(`${where}: description`);
      const parameters = (operation.parameters ?? []).map((entry) => resolveRef<OpenApiParameter>(document, entry));
      for (const {name, description} of parameters)
        if (!description) missing.push(`${where} parameter ${name}: description`);
    }
    const visit = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((child, index) => visit(child, `${where}/${index}`));
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (schema.type === 'array' && !('items' in schema)) missing.push(`${where}: an array without items`);
      for (const [key, child] of Object.entries(schema)) visit(child, `${where}/${key}`);
    };
    visit(document.components, '#/components');
    visit(document.paths, '#/paths');
    expect(missing).toEqual([]);
  });

  // A new operation needs no second edit for its scope: the Authentication page's table lists it from the contract.
  test('the scope table lists every operation under each scope it needs', () => {
    const document = loadDocument();
    const html = readFileSync(path.join(BUILD_DIR, 'getting-started', 'authentication.html'), 'utf8');
    const rows = [
      ...html.matchAll(/<tr><td><code>([\w:]+)<\/code>(?:<\/td>)?<td>[\s\S]*?(?=<tr>|<\/tbody>|<\/table>)/g),
    ];
    const listed = new Map(rows.map(([row, scope]) => [scope!, row.replace(/<[^>]+>/g, ' ')]));
    expect(listed.size, 'scope rows found').toBeGreaterThan(0);
    // The operations that need a token but no scope are listed in a row of their own.
    const noScope = /<tr><td>None(?:<\/td>)?<td>[\s\S]*?(?=<tr>|<\/tbody>|<\/table>)/
      .exec(html)?.[0]
      .replace(/<[^>]+>/g, ' ');
    const missing: string[] = [];
    for (const {method, path: apiPath, operation} of listOperations(document)) {
      const requirements = (operation.security ?? []) as Record<string, string[]>[];
      for (const scope of requirements.flatMap((entry) => entry.oauth2 ?? []))
        if (!listed.get(scope)?.includes(`${method} ${apiPath}`)) missing.push(`${scope}: ${method} ${apiPath}`);
      if (requirements.some((entry) => entry.oauth2?.length === 0) && !noScope?.includes(`${method} ${apiPath}`)) {
        missing.push(`no scope: ${method} ${apiPath}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

test.describe('Postman collection and environments (build/postman/)', {tag: '@viewport-independent'}, () => {
  test('are Collection v2.1 named from the constants, folders in the brief order, Bearer {{accessToken}}, the token renewed the model’s lead before expiry', () => {
    const collection = loadCollection();
    expect(collection.info.name).toBe(POSTMAN.collectionName);
    expect(collection.info.schema).toContain('/v2.1.0/');
    const folders = collection.item.map((folder) => folder.name).filter((name) => BRIEF_FOLDERS.includes(name));
    expect(folders, 'the brief folders in its order').toEqual(BRIEF_FOLDERS);
    expect(collection.auth).toEqual({
      type: 'bearer',
      bearer: [{key: 'token', value: '{{accessToken}}', type: 'string'}],
    });
    const requests = collection.item.flatMap((folder) => folder.item ?? []);
    expect(requests).toHaveLength(listOperations(loadDocument()).length);
    for (const request of requests)
      expect(['{{baseUrl}}', '{{tokenUrl}}'], request.name).toContain(request.request!.url.host![0]);
    // What the newman runs of tests/samples/postman.spec.ts cannot wait for; they check the rest of the scripts.
    const prerequest = collection.event.find((event) => event.listen === 'prerequest')!.script.exec.join('\n');
    expect(prerequest).toContain(`${LIMITS.tokenRefreshLeadSeconds} * 1000`);
  });

  test('environments carry the brief variables, with clientSecret secret', () => {
    for (const [key, urlPath, name] of [
      ['sandbox', ARTIFACTS.postmanSandboxEnvironment, POSTMAN.sandboxEnvironmentName],
      ['live', ARTIFACTS.postmanLiveEnvironment, POSTMAN.liveEnvironmentName],
    ] as const) {
      const environment = loadEnvironment(urlPath);
      expect(environment.name).toBe(name);
      const values = Object.fromEntries(environment.values.map((value) => [value.key, value]));
      expect(Object.keys(values)).toEqual([
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
      ]);
      expect(values).toMatchObject({
        baseUrl: {value: ENVIRONMENTS[key].apiBase},
        tokenUrl: {value: ENVIRONMENTS[key].tokenUrl},
        clientSecret: {type: 'secret', value: ''},
      });
    }
  });
});

// Stopped in a hook, which runs after a timeout too.
let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
test.afterAll(() => prism?.stop());

test(
  'the generated collection runs against a Prism mock of the OpenAPI document: every request gets a 2xx; the happy path 00 → 04 chains its IDs',
  {tag: '@viewport-independent'},
  async () => {
    // Up to 90 s to start the mock, 120 s for the run.
    test.setTimeout(210_000);
    prism = await startPrism(path.join(BUILD_DIR, 'openapi.yaml'));
    // The Sandbox environment pointed at the mock, with test credentials.
    const sandbox = loadEnvironment(ARTIFACTS.postmanSandboxEnvironment);
    const origin = `http://127.0.0.1:${prism.port}`;
    const overrides: Record<string, string> = {
      baseUrl: `${origin}${new URL(ENVIRONMENTS.sandbox.apiBase).pathname}`,
      tokenUrl: `${origin}${new URL(ENVIRONMENTS.sandbox.tokenUrl).pathname}`,
      clientId: SAMPLES.clientId,
      clientSecret: `${ENVIRONMENTS.sandbox.clientSecretPrefix}mock`,
    };
    const values = sandbox.values.map((value) => ({...value, value: overrides[value.key] ?? value.value}));
    const summary = await new Promise<NewmanRunSummary>((resolve, reject) =>
      newman.run(
        {
          collection: loadCollection() as never,
          environment: {...sandbox, values} as never,
          reporters: [],
          timeoutRequest: 10_000,
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    expect(summary.run.failures.map((failure) => `${failure.source?.name}: ${failure.error.message}`)).toEqual([]);
    const executed = summary.run.executions.map((execution) => execution.item.name);
    // Pre-request scripts send requests of their own (the refund's and the cancel's orders): count distinct requests.
    expect(new Set(executed).size).toBe(listOperations(loadDocument()).length);
    // A header the API sends only on some answers must not reach every answer of a mock: it would mislead a client.
    const sometimesHeaders = [IDEMPOTENCY.replayHeader, 'Deprecation', 'Sunset'];
    const misleading = summary.run.executions.flatMap((execution) =>
      sometimesHeaders
        .filter((name) => execution.response?.headers.has(name))
        .map((name) => `${execution.item.name}: ${name}`),
    );
    expect(misleading).toEqual([]);
    // The happy path (00 → 04: token → packages → order → eSIM → usage) ran in its order and stored the mock's IDs.
    const milestones = ['Get an access token', 'List packages', 'Create an order', 'Get an eSIM', 'Get usage'];
    expect(
      executed.filter((name) => milestones.includes(name)),
      'the happy path in its order',
    ).toEqual(milestones);
    // At run time `summary.environment` is a postman-collection VariableScope.
    const finalValues = (summary.environment as unknown as {toObject(): Record<string, unknown>}).toObject();
    expect(finalValues.orderId, 'orderId stored').toBe(SAMPLES.orderId);
    expect(finalValues.iccid, 'iccid stored').toBe(SAMPLES.iccid);
    // packageId is the reader's choice: listing packages does not overwrite it.
    expect(finalValues.packageId, 'packageId kept').toBe(SAMPLES.packageId);
    expect(String(finalValues.accessToken), 'accessToken stored').not.toBe('');
  },
);

test.describe('docs samples match the OpenAPI document', {tag: '@viewport-independent'}, () => {
  const isOperation = (pathname: string, method?: string) =>
    listOperations(loadDocument()).some(
      (operation) => (method ?? operation.method) === operation.method && matchesTemplate(pathname, operation.path),
    );

  test('every curl sample calls an existing method + path on the canonical sandbox or live host', () => {
    const samples = curlSamples();
    expect(samples.length, 'curl samples found in docs/').toBeGreaterThan(0);
    const offending = samples.flatMap((sample) => {
      const url = URL.canParse(sample.url) ? new URL(sample.url) : undefined;
      const problems: string[] = [];
      if (!url || !API_ORIGINS.includes(url.origin)) problems.push(`host is not one of ${API_ORIGINS.join(', ')}`);
      if (url && !isOperation(url.pathname, sample.method)) {
        problems.push(`${sample.method} ${url.pathname} is not in the OpenAPI document`);
      }
      return problems.map((problem) => `${sample.file}:${sample.line}: ${problem} — ${sample.text}`);
    });
    expect(offending).toEqual([]);
  });

  test('every endpoint path written in the docs exists in the OpenAPI document', () => {
    const mentions = endpointMentions();
    expect(mentions.length, 'endpoint paths found in docs/').toBeGreaterThan(0);
    const offending = mentions
      .filter((mention) => !isOperation(mention.text))
      .map((mention) => `${mention.file}:${mention.line}: ${mention.text}`);
    expect(offending).toEqual([]);
  });

  test('every download link to an API artifact is one of ARTIFACTS (served by the build)', () => {
    const downloads = Object.values(ARTIFACTS) as string[];
    const offending = docLines().flatMap((line) =>
      [...line.text.matchAll(/(\/postman\/[\w.-]+|\/openapi\.(?:ya?ml|json))/g)]
        .filter((match) => !downloads.includes(match[1]!))
        .map((match) => `${line.file}:${line.line}: ${match[1]}`),
    );
    expect(offending).toEqual([]);
  });
});

test('paths: ids and {placeholders} match parameters; other segments do not', {tag: '@viewport-independent'}, () => {
  expect(matchesTemplate('/v1/esims/8944000000123456783/usage', '/v1/esims/{iccid}/usage')).toBe(true);
  expect(matchesTemplate('/v1/esims/{iccid}/usage', '/v1/esims/{iccid}/usage')).toBe(true);
  expect(matchesTemplate('/v1/esim/8944000000123456783/usage', '/v1/esims/{iccid}/usage')).toBe(false);
  expect(matchesTemplate('/v1/esims/usage', '/v1/esims/{iccid}/usage')).toBe(false);
});

/** The API origins a sample may call (sandbox and live). */
const API_ORIGINS = Object.values(ENVIRONMENTS).map((environment) => new URL(environment.apiBase).origin);
const CONSTANTS: Record<string, unknown> = {...api, BRAND, SITE};

/** Replaces `${NAME.path}` (template literals) and `{NAME.path}` (MDX expressions) naming a constant. */
function resolveConstants(text: string): string {
  const lookup = (match: string, name: string) => {
    const value = name
      .split('.')
      .reduce<unknown>(
        (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
        CONSTANTS,
      );
    return typeof value === 'string' || typeof value === 'number' ? String(value) : match;
  };
  return text.replace(/\$?\{([A-Z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}/g, lookup);
}

/** Every doc's lines, as written. */
const docFiles = () =>
  (readdirSync(path.join(ROOT, 'docs'), {recursive: true}) as string[])
    .filter((name) => /\.mdx?$/.test(name))
    .sort()
    .map((name) => ({
      file: path.join('docs', name),
      lines: readFileSync(path.join(ROOT, 'docs', name), 'utf8').split('\n'),
    }));

/** Every line of every doc, constants resolved. */
const docLines = () =>
  docFiles().flatMap(({file, lines}) =>
    lines.map((text, index) => ({file, line: index + 1, text: resolveConstants(text)})),
  );

/** Splits a shell command into words (single/double quotes and backslash escapes). */
function shellWords(command: string): string[] {
  return [...command.matchAll(/(?:'[^']*'|"(?:\\[\s\S]|[^"\\])*"|\\[\s\S]|[^\s'"\\])+/g)].map(([word]) =>
    word.replace(
      /'([^']*)'|"((?:\\[\s\S]|[^"\\])*)"|\\([\s\S])/g,
      (_match, single?: string, double?: string, escaped?: string) =>
        single ?? double?.replace(/\\(["\\$`])/g, '$1') ?? escaped!,
    ),
  );
}

const DATA_FLAGS = ['-d', '--data', '--data-raw', '--data-binary', '--data-urlencode', '--json', '-F', '--form'];

/** The method and URL of one curl command line (continuations already joined). */
function parseCurl(command: string): {method: string; url: string | undefined} {
  const words = shellWords(command.replace(/\\\n/g, ' '));
  let method: string | undefined;
  let url: string | undefined;
  let hasData = false;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index]!;
    if (word === '-X' || word === '--request') method = words[++index];
    else if (/^-X[A-Z]+$/.test(word)) method = word.slice(2);
    else if (word === '--url') url = words[++index];
    else if (DATA_FLAGS.some((flag) => word === flag || (flag.startsWith('--') && word.startsWith(`${flag}=`)))) {
      hasData = true;
    } else if (/^https?:\/\//.test(word) && !url) url = word;
  }
  return {method: (method ?? (hasData ? 'POST' : 'GET')).toUpperCase(), url};
}

/** Every curl command in the docs: lines that start with `curl` (optionally after `$ `), with their continuations. */
function curlSamples() {
  return docFiles().flatMap(({file, lines}) =>
    lines.flatMap((line, index) => {
      if (!/^\s*(?:\$\s+|\{?`)?curl\s/.test(line)) return [];
      let command = line.replace(/^\s*(?:\$\s+|\{?`)?/, '');
      for (let next = index; /\\\s*$/.test(lines[next]!) && next + 1 < lines.length;) {
        command = `${command.replace(/\\\s*$/, '')} ${lines[++next]!.trim()}`;
      }
      const text = resolveConstants(command.replace(/`\}?\s*$/, ''));
      const {method, url} = parseCurl(text);
      return [{file, line: index + 1, text, method, url: url ?? ''}];
    }),
  );
}

/** An API path written in the docs, e.g. `/v1/esims/{iccid}/usage` or the path of an API URL. */
function endpointMentions() {
  const pattern = /(https?:\/\/[^\s"'`)<>\]|]+)|(?<![\w/.:@-])(\/(?:v\d+|oauth)\/[^\s"'`)<>\]|]*)/g;
  return docLines().flatMap((located) =>
    [...located.text.matchAll(pattern)].flatMap((match) => {
      const written = match[1]?.replace(/[.,;:!…]+$/, '');
      const url = written && URL.canParse(written) ? new URL(written) : undefined;
      // Not the API (widget, dashboard, partner sites …).
      if (match[1] && (!url || !API_ORIGINS.includes(url.origin))) return [];
      const candidate = (url ? url.pathname : match[2]!.split(/[?#]/)[0]!).replace(/[.,;:!…]+$/, '');
      // The API base itself (`https://api.example.com/v1`) or a bare origin is not an endpoint.
      return /^\/(?:v\d+\/?)?$/.test(candidate) ? [] : [{...located, text: candidate}];
    }),
  );
}
