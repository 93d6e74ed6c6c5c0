// api/openapi.yaml takes its facts from the constants through `${NAME.path}` placeholders, filled here.
import {parse, stringify} from 'yaml';

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
  return document;
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
