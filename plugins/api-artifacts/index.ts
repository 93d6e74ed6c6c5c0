/**
 * api-artifacts: generates the machine-readable API description from one source and serves
 * it as downloads. `loadContent` renders api/openapi.yaml with the constants and converts it
 * to the Postman collection and environments; `postBuild` writes them into the build output;
 * in `docusaurus start` a dev-server middleware serves the same files.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';

import type {LoadContext, Plugin} from '@docusaurus/types';

import {apiFacts, postmanNames, type ApiFacts} from './facts';
import {openApiToYaml, renderOpenApi} from './openapi';
import {DEFAULT_OPTIONS, type PluginOptions} from './options';
import {generatePostmanCollection, generatePostmanEnvironment} from './postman';

export {validateOptions} from './options';

export const PLUGIN_NAME = 'api-artifacts';

/** The download path of the OpenAPI document (ARTIFACTS.openapi). */
export const OPENAPI_PATH = '/openapi.yaml';

/** Download path (from the site root) → file content. */
export type Artifacts = Map<string, string>;

/** Generates every artifact from the OpenAPI source text for these facts. */
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

/** Writes the artifacts under `outDir` (e.g. `build/`). */
export async function writeArtifacts(artifacts: Artifacts, outDir: string): Promise<void> {
  for (const [urlPath, content] of artifacts) {
    const file = path.join(outDir, ...urlPath.split('/'));
    await mkdir(path.dirname(file), {recursive: true});
    await writeFile(file, content);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.yaml': 'application/yaml; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

export default function pluginApiArtifacts(context: LoadContext, options: PluginOptions = DEFAULT_OPTIONS): Plugin<Artifacts> {
  const sourcePath = path.resolve(context.siteDir, options.source);
  let artifacts: Artifacts = new Map();
  return {
    name: PLUGIN_NAME,

    getPathsToWatch() {
      return [sourcePath];
    },

    async loadContent() {
      artifacts = await generateArtifacts(await readFile(sourcePath, 'utf8'), apiFacts(options.brand));
      return artifacts;
    },

    // `docusaurus start` only: serve the same files from memory (no-op in a build). webpack-merge
    // calls Docusaurus's `setupMiddlewares` and this one with the same array and concatenates the
    // results, so this one puts its middleware first in that array (before the SPA fallback,
    // which would answer /openapi.yaml with index.html) and returns nothing of its own.
    configureWebpack(_config, isServer) {
      if (isServer) {
        return {};
      }
      const serveArtifact = (request: {path?: string; url?: string}, response: DevResponse, next: () => void) => {
        const urlPath = (request.path ?? request.url ?? '').split('?')[0]!;
        const content = artifacts.get(`/${urlPath.slice(context.baseUrl.length)}`);
        if (content === undefined) {
          next();
          return;
        }
        response.setHeader('Content-Type', CONTENT_TYPES[path.extname(urlPath)] ?? 'application/octet-stream');
        response.end(content);
      };
      return {
        devServer: {
          setupMiddlewares: (middlewares: unknown[]) => {
            middlewares.unshift({name: PLUGIN_NAME, middleware: serveArtifact});
            return [];
          },
        },
      } as object;
    },

    async postBuild({outDir, content}) {
      await writeArtifacts(content, outDir);
    },
  };
}

type DevResponse = {setHeader(name: string, value: string): void; end(body: string): void};
