// The SDK's methods from sdk/index.d.ts, so the method table cannot drift from the declaration.
import ts from 'typescript';

import {SDK_CLASS} from '../src/constants/site';

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
