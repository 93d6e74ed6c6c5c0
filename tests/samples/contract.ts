/**
 * The API contract the samples are checked against: the OpenAPI document exactly as the site
 * serves it (generated from api/openapi.yaml by plugins/api-reference), its operations and their
 * scopes; the validator itself is lib/contract/validator.ts.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {parse} from 'yaml';

import {ARTIFACTS} from '../../src/constants/api';
import {generateArtifacts} from '../../lib/contract/artifacts';
import {operationScopes, type OpenApiDocument} from '../../lib/contract/openapi';
import {findOperation} from '../../lib/contract/validator';

export {exampleValidator, findOperation, type ExampleTarget} from '../../lib/contract/validator';
import {ROOT} from './blocks';

export type Contract = {document: OpenApiDocument; yaml: string};

export async function loadContract(): Promise<Contract> {
  const artifacts = await generateArtifacts(readFileSync(path.join(ROOT, 'api/openapi.yaml'), 'utf8'));
  const yaml = artifacts.get(ARTIFACTS.openapi)!;
  return {document: parse(yaml) as OpenApiDocument, yaml};
}

/** The scopes a token needs for `METHOD /path`. */
export function scopesOf(document: OpenApiDocument, method: string, apiPath: string): string[] {
  const found = findOperation(document, method, apiPath);
  if (!found) {
    throw new Error(`${method} ${apiPath} is not an operation of the OpenAPI document`);
  }
  return operationScopes(document, found.operation);
}
