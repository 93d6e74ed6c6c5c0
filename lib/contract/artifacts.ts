// Kept light: a production build loads it in a worker thread.
import {readFile} from 'node:fs/promises';

import {apiFacts, postmanNames, type ApiFacts} from './facts';
import {openApiToYaml, renderOpenApi} from './openapi';
import {generatePostmanCollection, generatePostmanEnvironment} from './postman';

export const OPENAPI_PATH = '/openapi.yaml';

export type Artifacts = Map<string, string>;

export async function generateArtifacts(source: string, facts: ApiFacts = apiFacts()): Promise<Artifacts> {
  const document = renderOpenApi(source, facts);
  const names = postmanNames(facts);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return new Map([
    [OPENAPI_PATH, openApiToYaml(document, facts)],
    [names.paths.collection, json(await generatePostmanCollection(document, facts))],
    [names.paths.environments.sandbox, json(generatePostmanEnvironment(facts, 'sandbox'))],
    [names.paths.environments.live, json(generatePostmanEnvironment(facts, 'live'))],
  ]);
}

export async function generateArtifactsFromFile(sourcePath: string, brand?: string): Promise<Artifacts> {
  return generateArtifacts(await readFile(sourcePath, 'utf8'), apiFacts(brand));
}
