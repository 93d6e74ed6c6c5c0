/**
 * A JSON Schema validator for the contract: checks a value against an operation's request body or
 * response schema, and also refuses fields and enum values the contract does not define. The doc
 * tests check the pages' JSON examples with it, the sandbox tests every answer (and its error code against the
 * behaviour model's operations for it).
 */
import Ajv2020, {type ErrorObject} from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import {answers, ERROR_CODES, type ErrorRule} from '../../src/constants/behaviour';
import {listOperations, operationFacts, resolveRef, type OpenApiDocument} from './openapi';

/** The operation `method path` names; `path` is a template (`/v1/esims/{iccid}`) or a concrete path. */
export function findOperation(document: OpenApiDocument, method: string, apiPath: string) {
  const segments = apiPath.split('?')[0]!.replace(/\/+$/, '').split('/');
  return listOperations(document).find(
    (operation) =>
      operation.method === method.toUpperCase() &&
      operation.path.split('/').length === segments.length &&
      operation.path
        .split('/')
        .every((segment, index) => segment === segments[index] || (/^\{.+\}$/.test(segment) && segments[index] !== '')),
  );
}

type Schema = Record<string, unknown>;

const CONTRACT_ID = 'contract';

/** The document with every local `$ref` made absolute, so any schema inside it compiles on its own. */
function absoluteRefs(node: unknown, dropRequired: boolean): unknown {
  if (Array.isArray(node)) {
    return node.map((item) => absoluteRefs(item, dropRequired));
  }
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(dropRequired && key === 'required' && Array.isArray(value)))
        .map(([key, value]) => [
          key,
          key === '$ref' && typeof value === 'string' && value.startsWith('#')
            ? `${CONTRACT_ID}${value}`
            : absoluteRefs(value, dropRequired),
        ]),
    );
  }
  return node;
}

export type ExampleTarget = {
  method: string;
  path: string;
  target: 'request' | number;
  pointer: string;
  abridged: boolean;
};

/** Validates JSON examples against the contract; `validate` returns readable problems, none when it is valid. */
export function exampleValidator(document: OpenApiDocument) {
  const validators = [false, true].map((abridged) => {
    const ajv = new Ajv2020({strict: false, allErrors: true, verbose: true});
    addFormats(ajv);
    const tree = absoluteRefs(document, abridged) as Schema;
    ajv.addSchema({...tree, $id: CONTRACT_ID});
    return {ajv, tree};
  });

  const deref = (tree: Schema, schema: unknown): Schema => {
    let current = schema as Schema;
    while (current && typeof current.$ref === 'string') {
      const pointer = (current.$ref as string).slice(CONTRACT_ID.length + 1);
      current = pointer
        .split('/')
        .filter(Boolean)
        .reduce<Schema>((node, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')] as Schema, tree);
    }
    return current;
  };

  /** The schemas a value at `key` of an object of `schema` must match (through allOf/oneOf/anyOf). */
  const propertySchemas = (tree: Schema, schema: Schema): Map<string, Schema[]> | undefined => {
    const resolved = deref(tree, schema);
    const properties = new Map<string, Schema[]>();
    let closed = false;
    for (const [key, value] of Object.entries((resolved.properties as Record<string, Schema>) ?? {})) {
      properties.set(key, [...(properties.get(key) ?? []), value]);
      closed = true;
    }
    for (const branch of [
      ...((resolved.allOf as Schema[]) ?? []),
      ...((resolved.oneOf as Schema[]) ?? []),
      ...((resolved.anyOf as Schema[]) ?? []),
    ]) {
      const inner = propertySchemas(tree, branch);
      for (const [key, schemas] of inner ?? []) {
        properties.set(key, [...(properties.get(key) ?? []), ...schemas]);
        closed = true;
      }
    }
    // An object with its own `additionalProperties` schema (metadata) is open by design.
    return closed && resolved.additionalProperties === undefined ? properties : undefined;
  };

  /** Fields the contract does not define, anywhere in the value. */
  const inventedFields = (tree: Schema, value: unknown, schemas: Schema[], at: string): string[] => {
    if (Array.isArray(value)) {
      const items = schemas
        .map((schema) => deref(tree, schema))
        .flatMap((schema) => [
          schema.items,
          ...((schema.allOf as Schema[]) ?? []).map((branch) => deref(tree, branch).items),
        ])
        .filter(Boolean) as Schema[];
      return items.length ? value.flatMap((item, index) => inventedFields(tree, item, items, `${at}/${index}`)) : [];
    }
    if (value === null || typeof value !== 'object') {
      return [];
    }
    const known = new Map<string, Schema[]>();
    let open = false;
    for (const schema of schemas) {
      const properties = propertySchemas(tree, schema);
      if (!properties) {
        open = true;
        continue;
      }
      for (const [key, inner] of properties) {
        known.set(key, [...(known.get(key) ?? []), ...inner]);
      }
    }
    return Object.entries(value).flatMap(([key, inner]) => {
      if (!known.has(key)) {
        return open ? [] : [`${at || '/'}: field \`${key}\` is not in the contract`];
      }
      return inventedFields(tree, inner, known.get(key)!, `${at}/${key}`);
    });
  };

  /** The schema an example targets, as a `contract#/…` reference, or a reason it has none. */
  const targetSchema = (target: ExampleTarget): {schema: Schema} | {problem: string} => {
    if (target.method === 'WEBHOOK') {
      const webhook = deref(validators[0]!.tree, {$ref: `${CONTRACT_ID}#/webhooks/${target.path}/post/requestBody`});
      const schema = (webhook?.content as Record<string, Schema> | undefined)?.['application/json']?.schema as
        Schema | undefined;
      return schema ? {schema} : {problem: `the document has no webhook "${target.path}" with a JSON body`};
    }
    const found = findOperation(document, target.method, target.path);
    if (!found) {
      return {problem: `${target.method} ${target.path} is not an operation of the OpenAPI document`};
    }
    const escapedPath = found.path.replace(/~/g, '~0').replace(/\//g, '~1');
    const operationPointer = `#/paths/${escapedPath}/${found.method.toLowerCase()}`;
    const {tree} = validators[0]!;
    let pointer: string;
    if (target.target === 'request') {
      pointer = `${operationPointer}/requestBody`;
    } else {
      pointer = `${operationPointer}/responses/${target.target}`;
      if (!(found.operation as {responses?: Record<string, unknown>}).responses?.[String(target.target)]) {
        return {problem: `${found.method} ${found.path} has no ${target.target} response in the contract`};
      }
    }
    const holder = deref(tree, {$ref: `${CONTRACT_ID}${pointer}`});
    const media = (holder?.content as Record<string, Schema> | undefined)?.['application/json'];
    if (!media?.schema) {
      return {problem: `${found.method} ${found.path} ${target.target} has no JSON body in the contract`};
    }
    let schema = media.schema as Schema;
    for (const key of target.pointer.split('/').filter(Boolean)) {
      const resolved = deref(tree, schema);
      const next = /^\d+$/.test(key)
        ? (resolved.items ??
          ((resolved.allOf as Schema[]) ?? []).map((branch) => deref(tree, branch).items).find(Boolean))
        : propertySchemas(tree, resolved)?.get(key)?.at(-1);
      if (!next) {
        return {problem: `pointer ${target.pointer} does not lead into the ${target.target} schema`};
      }
      schema = next as Schema;
    }
    return {schema};
  };

  return {
    validate(example: unknown, target: ExampleTarget): string[] {
      const found = targetSchema(target);
      if ('problem' in found) {
        return [found.problem];
      }
      const {ajv, tree} = validators[target.abridged ? 1 : 0]!;
      const validate = ajv.compile(found.schema);
      const problems = validate(example) ? [] : (validate.errors ?? []).map(describe);
      return [...new Set([...problems, ...inventedFields(tree, example, [found.schema], '')])];
    },
  };
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || '/';
  if (error.keyword === 'enum') {
    return `${where}: ${JSON.stringify(error.data)} is not one of ${(error.params as {allowedValues: unknown[]}).allowedValues.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  if (error.keyword === 'required') {
    return `${where}: missing required field \`${(error.params as {missingProperty: string}).missingProperty}\` (mark the example \`abridged\` if it leaves fields out on purpose)`;
  }
  return `${where}: ${error.message}`;
}

/**
 * Checks a whole answer against the contract: its status is documented for the operation, its body
 * matches that response's schema, and the headers the response marks required are there.
 */
export function answerChecker(document: OpenApiDocument) {
  const validator = exampleValidator(document);
  return ({
    operation,
    status,
    headers,
    body,
  }: {
    operation: string;
    status: number;
    headers: Record<string, string>;
    body: unknown;
  }): string[] => {
    const [method, template] = operation.split(' ') as [string, string];
    const found = findOperation(document, method, template);
    const responses = (found?.operation.responses ?? {}) as Record<string, unknown>;
    const documented = responses[String(status)];
    if (!found || !documented) {
      return [`${operation} answered ${status}, which the contract does not document`];
    }
    const response = resolveRef<{
      headers?: Record<string, {required?: boolean} | {$ref: string}>;
      content?: Record<string, unknown>;
    }>(document, documented as never);
    const missingHeaders = Object.entries(response.headers ?? {})
      .filter(([, header]) => resolveRef<{required?: boolean}>(document, header).required)
      .filter(([name]) => headers[name.toLowerCase()] === undefined)
      .map(([name]) => `${operation} ${status}: missing header ${name}`);
    const bodyProblems =
      response.content && body !== undefined
        ? validator
            .validate(body, {method, path: template, target: status, pointer: '', abridged: false})
            .map((problem) => `${operation} ${status} body ${problem}`)
        : [];
    return [...missingHeaders, ...bodyProblems, ...unmodelledCode(document, found, operation, body)];
  };
}

/** An error code the behaviour model says this operation never answers (src/constants/behaviour.ts). */
function unmodelledCode(
  document: OpenApiDocument,
  found: NonNullable<ReturnType<typeof findOperation>>,
  operation: string,
  body: unknown,
): string[] {
  const code = (body as {error?: {code?: unknown}} | undefined)?.error?.code;
  if (typeof code !== 'string') return [];
  const rule = (ERROR_CODES as readonly ErrorRule[]).find((candidate) => candidate.code === code);
  if (!rule) return [`${operation} answered ${code}, a code the behaviour model does not have`];
  const facts = operationFacts(document, found.method, found.path, found.operation);
  return answers(rule, facts) ? [] : [`${operation} answered ${code}, which the behaviour model says it never answers`];
}
