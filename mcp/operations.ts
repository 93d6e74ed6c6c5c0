/**
 * Operations and schemas of the served contract as an agent needs them: `$ref`s resolved (cycles
 * named, never followed twice), the error codes the behaviour model says each answers, with their retry policy, an
 * example request and answer, and loose name matching with "did you mean" for near misses.
 */
import {
  listOperations,
  matchesTemplate,
  operationFacts,
  operationScopes,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../lib/contract/openapi';
import {errorCodesOf, RETRY_POLICIES, type RetryPolicy} from '../src/constants/behaviour';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const refTarget = (document: OpenApiDocument, ref: string): unknown =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (node, key) => (isObject(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      document,
    );

/** A copy of `node` with every `$ref` replaced by its target; a cycle becomes a note naming the schema. */
export function resolveDeep(document: OpenApiDocument, node: unknown, trail: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => resolveDeep(document, item, trail));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') {
    const {$ref: ref, ...siblings} = node;
    const name = ref.split('/').at(-1)!;
    if (trail.includes(ref)) return {...siblings, type: 'object', description: `Recursive: the ${name} schema again.`};
    const target = resolveDeep(document, refTarget(document, ref), [...trail, ref]);
    return isObject(target) ? {...target, ...(resolveDeep(document, siblings, trail) as Json)} : target;
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveDeep(document, value, trail)]));
}

export type ErrorAnswer = {
  status: string;
  /** Only when no code of the behaviour model applies (the codes say it all otherwise). */
  description?: string;
  codes: {code: string; retry: RetryPolicy; fix: string}[];
  schema?: unknown;
};

export type OperationDetail = {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  scopes: string[];
  urls: {environment: string; url: string}[];
  parameters: {name: string; in: string; required: boolean; type: string; description?: string; example?: unknown}[];
  requestBody: {contentType: string; required: boolean; schema: unknown; example?: unknown} | null;
  responses: {status: string; description: string; schema?: unknown; example?: unknown}[];
  errors: ErrorAnswer[];
  /** What each retry policy of this operation's codes asks of the client, in the behaviour model's words (once). */
  retryPolicies: Partial<Record<RetryPolicy, string>>;
  /** The body of every error answer that lists `codes` (the API's error envelope). */
  errorSchema: unknown;
  example: {request: string; response: {status: string; body: unknown} | null};
  documentedAt: {url: string; section: string}[];
};

/** A parameter's type in one phrase: `string (uuid, ≤255)`, `integer 1–100`, `"a" | "b"`. */
function typeOf(schema: unknown): string {
  if (!isObject(schema)) return 'any';
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const facets = [
    schema.format,
    schema.pattern && `pattern ${String(schema.pattern)}`,
    schema.minimum !== undefined || schema.maximum !== undefined
      ? `${schema.minimum ?? ''}–${schema.maximum ?? ''}`
      : null,
    schema.maxLength !== undefined && `≤${String(schema.maxLength)} chars`,
    schema.default !== undefined && `default ${JSON.stringify(schema.default)}`,
  ].filter(Boolean);
  return `${[schema.type].flat().join(' | ') || 'object'}${facets.length ? ` (${facets.join(', ')})` : ''}`;
}

const exampleOf = (media: Json | undefined): unknown => {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = isObject(media.examples) ? Object.values(media.examples)[0] : undefined;
  return isObject(first) ? first.value : undefined;
};

const isErrorEnvelope = (media: Json | undefined) =>
  isObject(media?.schema) && /\/ErrorEnvelope$/.test(String(media.schema.$ref ?? ''));

/**
 * The error envelope without what the answer gives once beside it: its list of every code (`errors` names this
 * operation's) and every retry policy's meaning (`retryPolicies` names this operation's).
 */
function withoutCodeList(schema: unknown): unknown {
  const fields = (schema as {properties?: {error?: {properties?: {code?: Json; retry?: Json}}}} | undefined)?.properties
    ?.error?.properties;
  const code = fields?.code;
  if (code && Array.isArray(code.enum)) {
    delete code.enum;
    code.description = `${String(code.description ?? '').trim()} This operation's codes are under \`errors\`.`.trim();
  }
  if (fields?.retry)
    fields.retry.description = 'What to do after this error: `retryPolicies` says what each value asks.';
  return schema ?? null;
}

export function operationDetail(
  document: OpenApiDocument,
  method: string,
  apiPath: string,
  operation: OpenApiOperation,
  documentedAt: {url: string; section: string}[],
): OperationDetail {
  const resolved = resolveDeep(document, operation) as Json;
  const parameters = ((resolved.parameters ?? []) as Json[]).map((parameter) => ({
    name: String(parameter.name),
    in: String(parameter.in),
    required: parameter.required === true,
    type: typeOf(parameter.schema),
    ...(parameter.description ? {description: String(parameter.description).trim()} : {}),
    ...(parameter.example !== undefined ? {example: parameter.example} : {}),
  }));
  const body = isObject(resolved.requestBody) ? resolved.requestBody : null;
  const [contentType, media] = body && isObject(body.content) ? (Object.entries(body.content)[0] ?? []) : [];
  const requestBody =
    body && contentType
      ? {
          contentType,
          required: body.required === true,
          schema: (media as Json).schema,
          ...(exampleOf(media as Json) !== undefined ? {example: exampleOf(media as Json)} : {}),
        }
      : null;

  const responses: OperationDetail['responses'] = [];
  const successMedia = (status: string): Json | undefined => {
    const answer = resolveDeep(document, (operation.responses as Json)[status]) as Json;
    return isObject(answer.content) ? (Object.values(answer.content)[0] as Json | undefined) : undefined;
  };
  const errors: ErrorAnswer[] = [];
  const answered = errorCodesOf(operationFacts(document, method, apiPath, operation));
  let errorSchema: unknown = null;
  for (const [status, raw] of Object.entries((operation.responses ?? {}) as Json)) {
    const answer = resolveDeep(document, raw) as Json;
    const rawMedia = (isObject(raw) && raw.$ref ? refTarget(document, String(raw.$ref)) : raw) as Json;
    const json = isObject(answer.content) ? (Object.values(answer.content)[0] as Json | undefined) : undefined;
    const description = String(answer.description ?? '').trim();
    if (Number(status) < 400) {
      responses.push({
        status,
        description,
        ...(json?.schema ? {schema: json.schema} : {}),
        ...(exampleOf(json) !== undefined ? {example: exampleOf(json)} : {}),
      });
    } else if (
      isErrorEnvelope(isObject(rawMedia?.content) ? (Object.values(rawMedia.content)[0] as Json) : undefined)
    ) {
      errorSchema ??= withoutCodeList(json?.schema);
      const codes = answered
        .filter((rule) => String(rule.status) === status)
        .map(({code, retry, fix}) => ({
          code,
          retry,
          fix,
        }));
      errors.push({status, codes});
    } else {
      errors.push({status, description, codes: [], ...(json?.schema ? {schema: json.schema} : {})});
    }
  }

  // A sandbox-only operation names its own servers.
  const operationServers = (operation as {servers?: OpenApiDocument['servers']}).servers;
  const servers = (operationServers ?? document.servers).map((server) => ({
    environment: (server.description ?? server.url).replace(/\s*\(.*$/, ''),
    url: `${server.url}${apiPath}`,
  }));
  const pathValue = (name: string) => {
    const parameter = parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
    return parameter?.example !== undefined ? String(parameter.example) : `{${name}}`;
  };
  const query = parameters
    .filter((parameter) => parameter.in === 'query' && parameter.required && parameter.example !== undefined)
    .map((parameter) => `${parameter.name}=${encodeURIComponent(String(parameter.example))}`);
  const url = `${servers[0]?.url.replace(/\{([^}]+)\}/g, (_whole, name: string) => pathValue(name)) ?? apiPath}${
    query.length ? `?${query.join('&')}` : ''
  }`;
  const secured = (operation.security ?? document.security ?? []) as unknown[];
  const lines = [`curl -X ${method} '${url}'`];
  if (secured.some((requirement) => isObject(requirement) && Object.keys(requirement).length > 0))
    lines.push(`-H 'Authorization: Bearer <access token>'`);
  for (const header of parameters.filter((parameter) => parameter.in === 'header' && parameter.required))
    lines.push(
      `-H '${header.name}: ${header.name === 'Idempotency-Key' ? '<a new UUID v4>' : String(header.example ?? '…')}'`,
    );
  if (requestBody?.example !== undefined) {
    lines.push(`-H 'Content-Type: ${requestBody.contentType}'`);
    const data =
      requestBody.contentType === 'application/json'
        ? JSON.stringify(requestBody.example)
        : new URLSearchParams(requestBody.example as Record<string, string>).toString();
    lines.push(`-d '${data}'`);
  }
  const success = responses.find((response) => response.example !== undefined);
  if (success) delete success.example;

  return {
    operationId: operation.operationId,
    method,
    path: apiPath,
    summary: operation.summary ?? '',
    description: String(resolved.description ?? '').trim(),
    scopes: operationScopes(document, operation),
    urls: servers,
    parameters,
    requestBody,
    responses,
    errors,
    retryPolicies: Object.fromEntries(
      [...new Set(errors.flatMap((answer) => answer.codes.map((code) => code.retry)))].map((policy) => [
        policy,
        RETRY_POLICIES[policy].meaning,
      ]),
    ),
    errorSchema,
    example: {
      request: lines.join(' \\\n  '),
      response: success ? {status: success.status, body: exampleOf(successMedia(success.status))} : null,
    },
    documentedAt,
  };
}

/** Edit distance, for "did you mean". */
export function distance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** 0 for names that hold one another, else the edit distance relative to the longer name. */
export function nearness(a: string, b: string): number {
  if (a.includes(b) || b.includes(a)) return 0;
  return distance(a, b) / Math.max(a.length, b.length, 1);
}

export type OperationRef = {method: string; path: string; operation: OpenApiOperation};
export type Match = {found: OperationRef} | {found?: undefined; suggestions: string[]};

const label = ({method, path, operation}: OperationRef) => `${operation.operationId} (${method} ${path})`;

/**
 * An operation by operationId (any case), `METHOD /path` (with or without `/v1`, a template or a
 * concrete path, a full URL) or a path alone when one operation has it; else the nearest names.
 */
export function findOperation(document: OpenApiDocument, input: string): Match {
  const operations = listOperations(document);
  const wanted = input.trim();
  const byId = operations.find(({operation}) => operation.operationId.toLowerCase() === wanted.toLowerCase());
  if (byId) return {found: byId};

  const parsed = /^(?:([a-z]+)\s+)?(\S+)$/i.exec(wanted);
  if (parsed) {
    const method = parsed[1]?.toUpperCase();
    let target = parsed[2]!;
    try {
      target = new URL(target).pathname;
    } catch {
      target = target.split(/[?#]/)[0]!;
    }
    if (!target.startsWith('/')) target = `/${target}`;
    const candidates = [target, `/v1${target}`].map((candidate) => candidate.replace(/(.)\/+$/, '$1'));
    const sameMethod = operations.filter((operation) => !method || operation.method === method);
    for (const candidate of candidates) {
      const exact = sameMethod.filter((operation) => operation.path === candidate);
      const concrete = sameMethod
        .filter((operation) => matchesTemplate(candidate, operation.path))
        .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
      const matches = exact.length ? exact : concrete.filter((operation) => operation.path === concrete[0]!.path);
      const get = matches.filter((operation) => operation.method === 'GET');
      if (matches.length === 1 || (!method && get.length === 1))
        return {found: matches.length === 1 ? matches[0]! : get[0]!};
      if (matches.length > 1) return {suggestions: matches.map(label)};
    }
  }

  const key = wanted.toLowerCase().replace(/\s+/g, ' ');
  const scored = operations.map((operation) => {
    const names = [
      operation.operation.operationId.toLowerCase(),
      `${operation.method} ${operation.path}`.toLowerCase(),
      `${operation.method} ${operation.path.replace(/^\/v1/, '')}`.toLowerCase(),
      operation.operation.summary.toLowerCase(),
    ];
    return {operation, score: Math.min(...names.map((name) => nearness(key, name)))};
  });
  scored.sort((a, b) => a.score - b.score);
  return {suggestions: scored.slice(0, 3).map(({operation}) => label(operation))};
}

export type SchemaDetail = {
  name: string;
  kind: 'schema' | 'webhook event';
  summary?: string;
  schema: unknown;
  example?: unknown;
  objectSchema?: unknown;
};

/** The webhook event examples of the contract, keyed by event type. */
function eventExamples(document: OpenApiDocument): Record<string, {summary?: string; value?: unknown}> {
  const delivery = isObject(document.webhooks) ? Object.values(document.webhooks)[0] : undefined;
  const post = isObject(delivery) ? delivery.post : undefined;
  const media = isObject(post) && isObject(post.requestBody) ? post.requestBody.content : undefined;
  const json = isObject(media) ? media['application/json'] : undefined;
  return isObject(json) && isObject(json.examples) ? (json.examples as Record<string, {summary?: string}>) : {};
}

/** Every name get_schema answers: the components schemas, then the webhook event types. */
export function schemaNames(document: OpenApiDocument): string[] {
  return [...Object.keys(document.components.schemas ?? {}), ...Object.keys(eventExamples(document))];
}

/** A components schema (any case) or a webhook event's payload, resolved; else the nearest names. */
export function findSchema(document: OpenApiDocument, input: string): {found: SchemaDetail} | {suggestions: string[]} {
  const wanted = input.trim().replace(/^#\/components\/schemas\//, '');
  const schemas = (document.components.schemas ?? {}) as Json;
  const name = Object.keys(schemas).find((candidate) => candidate.toLowerCase() === wanted.toLowerCase());
  if (name) return {found: {name, kind: 'schema', schema: resolveDeep(document, schemas[name])}};
  const events = eventExamples(document);
  const event = Object.keys(events).find((candidate) => candidate.toLowerCase() === wanted.toLowerCase());
  if (event) {
    const eventSchema = Object.keys(schemas).find((candidate) => candidate === 'Event');
    const resource = Object.keys(schemas).find(
      (candidate) => candidate.toLowerCase() === event.split('.')[0]!.toLowerCase(),
    );
    return {
      found: {
        name: event,
        kind: 'webhook event',
        summary: events[event]!.summary,
        schema: eventSchema ? resolveDeep(document, schemas[eventSchema]) : null,
        example: events[event]!.value,
        ...(resource ? {objectSchema: resolveDeep(document, schemas[resource])} : {}),
      },
    };
  }
  const names = schemaNames(document);
  const key = wanted.toLowerCase();
  return {
    suggestions: names
      .map((candidate) => ({candidate, score: nearness(key, candidate.toLowerCase())}))
      .sort((a, b) => a.score - b.score)
      .slice(0, 3)
      .map(({candidate}) => candidate),
  };
}

/**
 * A resolved schema in TypeScript-like notation, for the text an agent reads: properties with `?`
 * when optional, enums as unions, facets in parentheses and descriptions as comments. The JSON
 * schema itself stays in the structured result.
 */
export function schemaText(schema: unknown, indent = '', withComment = true): string {
  if (!isObject(schema)) return 'unknown';
  const comment =
    withComment && typeof schema.description === 'string'
      ? `  // ${schema.description.replace(/\s+/g, ' ').trim()}`
      : '';
  const facets = [
    schema.format,
    schema.pattern !== undefined && `/${String(schema.pattern)}/`,
    schema.minimum !== undefined || schema.maximum !== undefined
      ? `${schema.minimum ?? ''}–${schema.maximum ?? ''}`
      : null,
    schema.minLength !== undefined && `≥${String(schema.minLength)} chars`,
    schema.maxLength !== undefined && `≤${String(schema.maxLength)} chars`,
    schema.minItems !== undefined && `≥${String(schema.minItems)} items`,
    schema.maxItems !== undefined && `≤${String(schema.maxItems)} items`,
    schema.maxProperties !== undefined && `≤${String(schema.maxProperties)} keys`,
    schema.default !== undefined && `default ${JSON.stringify(schema.default)}`,
    schema.example !== undefined && `e.g. ${JSON.stringify(schema.example)}`,
  ].filter(Boolean);
  const suffix = facets.length ? ` (${facets.join(', ')})` : '';
  const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  let type: string;
  if (Array.isArray(schema.enum)) type = schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  else if (Array.isArray(alternatives)) type = alternatives.map((item) => schemaText(item, indent, false)).join(' | ');
  else if (Array.isArray(schema.allOf)) type = schema.allOf.map((item) => schemaText(item, indent, false)).join(' & ');
  else if (isObject(schema.items)) type = `(${schemaText(schema.items, indent)})[]`;
  else if (isObject(schema.properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    const lines = Object.entries(schema.properties).map(
      ([name, value]) => `${indent}  ${name}${required.includes(name) ? '' : '?'}: ${schemaText(value, `${indent}  `)}`,
    );
    return `{${suffix}${comment}\n${lines.join('\n')}\n${indent}}`;
  } else if (isObject(schema.additionalProperties))
    type = `{[key: string]: ${schemaText(schema.additionalProperties, indent)}}`;
  else type = [schema.type ?? 'object'].flat().join(' | ');
  return `${type}${suffix}${comment}`;
}
