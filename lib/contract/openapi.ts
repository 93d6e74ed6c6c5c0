// api/openapi.yaml takes its facts from the constants through `${NAME.path}` placeholders, filled here.
import {parse, stringify} from 'yaml';

import {errorRule, STATE_RULES, type OperationFacts} from '../../src/constants/behaviour';
import type {ApiFacts} from './facts';

export type OpenApiDocument = {
  openapi: string;
  info: {title: string; version: string; [key: string]: unknown};
  servers: {url: string; description?: string}[];
  tags: {name: string; description?: string}[];
  paths: Record<string, Record<string, OpenApiOperation | unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: ({$ref: string} | OpenApiParameter)[];
  [key: string]: unknown;
};

export type OpenApiParameter = {name: string; in: string; required?: boolean; example?: unknown; description?: string};

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}/g;

function lookup(facts: ApiFacts, name: string): string | number | boolean {
  let value: unknown = facts;
  for (const key of name.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw new Error(`Unknown placeholder \${${name}} in the OpenAPI source`);
  }
  return value;
}

/** A string that is one placeholder keeps the fact's type. */
export function fillPlaceholders(text: string, facts: ApiFacts): string | number | boolean {
  const whole = /^\$\{([^}]+)\}$/.exec(text);
  if (whole) {
    return lookup(facts, whole[1]);
  }
  return text.replace(PLACEHOLDER, (_match, name: string) => String(lookup(facts, name)));
}

function fillTree(node: unknown, facts: ApiFacts): unknown {
  if (typeof node === 'string') {
    return fillPlaceholders(node, facts);
  }
  if (Array.isArray(node)) {
    return node.map((item) => fillTree(item, facts));
  }
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [fillPlaceholders(key, facts).toString(), fillTree(value, facts)]),
    );
  }
  return node;
}

export function renderOpenApi(source: string, facts: ApiFacts): OpenApiDocument {
  const document = fillTree(parse(source, {maxAliasCount: -1, merge: true}), facts) as OpenApiDocument;
  // The `x-*` header sets exist only as YAML anchors for the source; they are expanded above.
  for (const key of Object.keys(document.components)) {
    if (key.startsWith('x-')) {
      delete document.components[key];
    }
  }
  specialiseErrorExamples(document);
  return document;
}

type ErrorExample = {code: string; message: string; param: string | null; doc_url: string; retry: string};
type JsonResponse = {content: {'application/json': {example: {error: ErrorExample}}}};

/**
 * A mock of the contract answers with a response's example, and answers any request that fails its checks
 * with the operation's 422 (else 400) example: so each operation's 400 names one of its own fields, and its
 * 422 the refusal its state rule answers, rather than one example shared by every operation.
 */
function specialiseErrorExamples(document: OpenApiDocument): void {
  const shared = (name: string) => `#/components/responses/${name}`;
  const specialise = (responses: Record<string, unknown>, status: string, change: Partial<ErrorExample>) => {
    const response = structuredClone(resolveRef(document, responses[status] as JsonResponse));
    const error = response.content['application/json'].example.error;
    Object.assign(error, change, change.code ? {doc_url: error.doc_url.replace(/#.*$/, `#${change.code}`)} : {});
    responses[status] = response;
  };
  for (const {method, path, operation} of listOperations(document)) {
    const responses = operation.responses as Record<string, {$ref?: string}> | undefined;
    if (responses?.['400']?.$ref === shared('BadRequest')) {
      const param = firstInput(document, operation);
      if (param) specialise(responses, '400', {param, message: `${param} is missing or not valid.`});
    }
    const refusal = STATE_RULES.find((rule) => rule.operation === `${method} ${path}`)?.failure;
    if (refusal && responses?.['422']?.$ref === shared('Unprocessable')) {
      const rule = errorRule(refusal);
      specialise(responses, '422', {code: refusal, message: `${rule.summary.replace(/`/g, '')}.`, retry: rule.retry});
    }
  }
  const used = JSON.stringify(document.paths);
  for (const name of ['BadRequest', 'Unprocessable']) {
    if (!used.includes(`"${shared(name)}"`)) delete document.components.responses![name];
  }
}

/** What a client most often gets wrong first: a required header or query parameter, a required body field, else any. */
function firstInput(document: OpenApiDocument, operation: OpenApiOperation): string | undefined {
  const parameters = (operation.parameters ?? []).map((parameter) => resolveRef<OpenApiParameter>(document, parameter));
  const body = resolveRef<{content?: Record<string, {schema?: unknown}>}>(
    document,
    (operation.requestBody ?? {}) as {content?: Record<string, {schema?: unknown}>},
  );
  const schema = resolveRef<{required?: string[]} | undefined>(
    document,
    Object.values(body.content ?? {})[0]?.schema as {required?: string[]},
  );
  return (
    parameters.find((parameter) => parameter.required && parameter.in !== 'path')?.name ??
    schema?.required?.[0] ??
    parameters.find((parameter) => parameter.in === 'query')?.name ??
    parameters.find((parameter) => parameter.in === 'path')?.name
  );
}

export function openApiToYaml(document: OpenApiDocument, facts: ApiFacts): string {
  const header = `# ${facts.BRAND} API ${facts.API_VERSION}: OpenAPI ${document.openapi}. Generated from api/openapi.yaml; do not edit.\n`;
  return header + stringify(document, {aliasDuplicateObjects: false, lineWidth: 0});
}

/** Every operation of the document, in source order: path order, then method order as written. */
export function listOperations(
  document: OpenApiDocument,
): {method: string; path: string; operation: OpenApiOperation}[] {
  const operations: {method: string; path: string; operation: OpenApiOperation}[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if ((HTTP_METHODS as readonly string[]).includes(method)) {
        operations.push({method: method.toUpperCase(), path, operation: operation as OpenApiOperation});
      }
    }
  }
  return operations;
}

export function resolveRef<T>(document: OpenApiDocument, value: T | {$ref: string}): T {
  if (value !== null && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    const target = value.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        document,
      );
    return resolveRef(document, target as T | {$ref: string});
  }
  return value as T;
}

/** What the behaviour model reads of an operation to tell which error codes it can answer. */
export function operationFacts(
  document: OpenApiDocument,
  method: string,
  apiPath: string,
  operation: OpenApiOperation,
): OperationFacts {
  const parameters = (operation.parameters ?? []).map((parameter) => resolveRef(document, parameter));
  const takesBody = operation.requestBody !== undefined;
  return {
    operation: `${method.toUpperCase()} ${apiPath}`,
    takesInput: takesBody || parameters.length > 0,
    takesBody,
    takesKey: parameters.some(
      (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key',
    ),
    needsScope: operationScopes(document, operation).length > 0,
  };
}

/** The API has one requirement per operation, so the first OAuth requirement is the answer. */
export function operationScopes(document: OpenApiDocument, operation: OpenApiOperation): string[] {
  const requirements = (operation.security ?? document.security ?? []) as Record<string, string[]>[];
  return requirements.flatMap((requirement) => Object.values(requirement)).at(0) ?? [];
}

export function matchesTemplate(actual: string, template: string): boolean {
  const a = actual.replace(/\/+$/, '').split('/');
  const t = template.split('/');
  return (
    a.length === t.length &&
    t.every((segment, index) => {
      const value = decodeURIComponent(a[index]!);
      if (/^\{[^}]+\}$/.test(segment)) {
        return value.length > 0;
      }
      return value === segment;
    })
  );
}
