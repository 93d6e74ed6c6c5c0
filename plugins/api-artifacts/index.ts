/**
 * api-artifacts: generates the machine-readable API description from one source and serves
 * it as downloads: api/openapi.yaml rendered with the constants, and the Postman collection and
 * environments converted from it (generate.ts). A production build generates them in a worker
 * thread and `postBuild` writes them into the build output; in `docusaurus start`, `loadContent`
 * generates them and a dev-server middleware serves them.
 */
import {mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';

import type {LoadContext, Plugin} from '@docusaurus/types';

import type {Artifacts} from './generate';
import {DEFAULT_OPTIONS, type PluginOptions} from './options';
import {runInWorker} from '../support/worker';

// generate.ts is loaded lazily: a production build loads it only in the worker thread.
const GENERATE_MODULE = require.resolve('./generate');
const loadGenerate = (): Promise<typeof import('./generate')> => import('./generate');

export {validateOptions} from './options';

export const PLUGIN_NAME = 'api-artifacts';

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
  // A production build generates the artifacts in a worker thread from plugin start-up, so the
  // converter's ~1 s of CPU (module loading, openapi-to-postmanv2) overlaps Docusaurus loading the
  // site on the main thread; nothing needs them before postBuild, which awaits them.
  const building =
    process.env.NODE_ENV === 'production'
      ? runInWorker<Artifacts>(GENERATE_MODULE, 'generateArtifactsFromFile', [sourcePath, options.brand])
      : undefined;
  // Reported by postBuild, which awaits it; never an unhandled rejection meanwhile.
  building?.catch(() => undefined);
  return {
    name: PLUGIN_NAME,

    getPathsToWatch() {
      return [sourcePath];
    },

    async loadContent() {
      // `docusaurus start` (and its reloads when the source changes): in process, for the dev server.
      artifacts = building ? new Map() : await (await loadGenerate()).generateArtifactsFromFile(sourcePath, options.brand);
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
      await writeArtifacts(building ? await building : content, outDir);
    },
  };
}

type DevResponse = {setHeader(name: string, value: string): void; end(body: string): void};
