// The SDK's methods from sdk/index.d.ts, so the method table cannot drift from the declaration.
import ts from 'typescript';

import {SDK_CLASS} from '../src/constants/site';
import {listOperations, type OpenApiDocument} from './contract/openapi';

export const DECLARATION = 'sdk/index.d.ts';
/** The client's variable name in the rendered calls (as in the docs' samples). */
export const CLIENT_VARIABLE = 'acme';

export type SdkMethodRow = {
  call: string;
  /** `GET /v1/packages/{package_id}`, or null for a method that calls no endpoint. */
  endpoint: string | null;
  summary: string;
};

const ENDPOINT = /^(GET|POST|PUT|PATCH|DELETE) \/\S+$/;

/** The rows of the client class `className` declared in `source`, in declaration order. */
export function extractSdkMethods(
  source: string,
  fileName: string = DECLARATION,
  className: string = SDK_CLASS,
): SdkMethodRow[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const where = (node: ts.Node) => `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const client = file.statements.find(
    (node): node is ts.ClassDeclaration => ts.isClassDeclaration(node) && node.name?.text === className,
  );
  if (!client) {
    throw new Error(`SDK declaration: ${fileName} declares no class ${className}`);
  }
  const interfaces = new Map(file.statements.filter(ts.isInterfaceDeclaration).map((node) => [node.name.text, node]));

  const rows: SdkMethodRow[] = [];
  for (const property of client.members.filter(ts.isPropertyDeclaration)) {
    const resource = property.name.getText(file);
    const typeName =
      property.type && ts.isTypeReferenceNode(property.type) ? property.type.typeName.getText(file) : undefined;
    const resourceInterface = typeName === undefined ? undefined : interfaces.get(typeName);
    if (!resourceInterface) {
      throw new Error(
        `SDK declaration: ${className}.${resource} (${where(property)}) must be typed with an interface declared in ${fileName}`,
      );
    }
    for (const method of resourceInterface.members.filter(ts.isMethodSignature)) {
      const name = method.name.getText(file);
      const parameters = method.parameters.map((parameter) => parameter.name.getText(file)).join(', ');
      const summary = ts
        .getJSDocCommentsAndTags(method)
        .filter(ts.isJSDoc)
        .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
        .join('\n')
        .trim()
        .split('\n')[0]!
        .trim();
      const endpointTags = ts.getJSDocTags(method).filter((tag) => tag.tagName.text === 'endpoint');
      const endpoint =
        endpointTags.length === 0 ? null : (ts.getTextOfJSDocComment(endpointTags[0]!.comment) ?? '').trim();
      if (summary === '') {
        throw new Error(`SDK declaration: ${typeName}.${name} (${where(method)}) has no JSDoc summary`);
      }
      if (endpointTags.length > 1 || (endpoint !== null && !ENDPOINT.test(endpoint))) {
        throw new Error(
          `SDK declaration: ${typeName}.${name} (${where(method)}) needs at most one \`@endpoint METHOD /path\`, not "${endpoint}"`,
        );
      }
      rows.push({call: `${CLIENT_VARIABLE}.${resource}.${name}(${parameters})`, endpoint, summary});
    }
  }
  return rows;
}

export type SdkCoverage = {
  /** Operations an SDK method calls, of `total`; the token endpoint counts as covered (the client calls it). */
  covered: number;
  total: number;
  /** The operations with no SDK method, in the contract's order. */
  httpOnly: {operation: string; summary: string}[];
};

/** Which operations of the contract the SDK's methods call; an `@endpoint` the contract lacks is an error. */
export function sdkCoverage(methods: readonly SdkMethodRow[], document: OpenApiDocument): SdkCoverage {
  const operations = listOperations(document).map(({method, path, operation}) => ({
    operation: `${method} ${path}`,
    summary: operation.summary,
    callsItself: Array.isArray(operation.security) && operation.security.length === 0,
  }));
  const unknown = methods.filter(
    ({endpoint}) => endpoint !== null && !operations.some((o) => o.operation === endpoint),
  );
  if (unknown.length > 0) {
    throw new Error(
      `SDK declaration: ${unknown.map(({call, endpoint}) => `${call} names @endpoint ${endpoint}`).join('; ')}, which is not an operation of api/openapi.yaml`,
    );
  }
  const httpOnly = operations.filter(
    ({operation, callsItself}) => !callsItself && !methods.some(({endpoint}) => endpoint === operation),
  );
  return {
    covered: operations.length - httpOnly.length,
    total: operations.length,
    httpOnly: httpOnly.map(({operation, summary}) => ({operation, summary})),
  };
}
