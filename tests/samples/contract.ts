/** The contract samples are checked against: the OpenAPI document exactly as the site serves it (plugins/api-reference). */
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {parse} from 'yaml';

import {ARTIFACTS} from '../../src/constants/api';
import {generateArtifacts, type Artifacts} from '../../lib/contract/artifacts';
import type {OpenApiDocument} from '../../lib/contract/openapi';
import {ROOT} from './blocks';

export {exampleValidator, findOperation} from '../../lib/contract/validator';

// Generated once per worker: every test reads the same files.
let generated: Promise<Artifacts> | undefined;
export const loadArtifacts = () =>
  (generated ??= generateArtifacts(readFileSync(path.join(ROOT, 'api/openapi.yaml'), 'utf8')));

export async function loadContract(): Promise<{document: OpenApiDocument}> {
  return {document: parse((await loadArtifacts()).get(ARTIFACTS.openapi)!) as OpenApiDocument};
}
