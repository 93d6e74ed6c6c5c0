/**
 * api-artifacts: generates the machine-readable API description from one source and serves
 * it as downloads: api/openapi.yaml rendered with the constants, and the Postman collection and
 * environments converted from it (generate.ts). `loadContent` generates them; `postBuild` writes
 * them into the build output and, in `docusaurus start`, a dev-server middleware serves them.
 * Pages render facts of the served contract (scopes, the collection's folders) from the data
 * files `contentLoaded` writes: `@generated/api-artifacts/default/contract.json`.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';

import type {LoadContext, Plugin} from '@docusaurus/types';

import {assertSiteUrlsResolve} from '../../lib/site-urls';
import {contractData} from '../../lib/contract/data';
import {apiFacts} from '../../lib/contract/facts';
import {generateArtifacts, type Artifacts} from '../../lib/contract/artifacts';
import {DEFAULT_OPTIONS, type PluginOptions} from './options';

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
  return {
    name: PLUGIN_NAME,

    getPathsToWatch() {
      return [sourcePath];
    },

    async loadContent() {
      artifacts = await generateArtifacts(await readFile(sourcePath, 'utf8'), apiFacts(options.brand));
      return artifacts;
    },

    async contentLoaded({content, actions}) {
      await actions.createData('contract.json', JSON.stringify(contractData(content)));
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

    async postBuild({outDir, content, siteConfig, baseUrl}) {
      await writeArtifacts(content, outDir);
      // Their URLs of this site (`doc_url` examples, descriptions) must name built pages and anchors.
      const written = new Set([...content.keys()].map((urlPath) => urlPath.slice(1)));
      await assertSiteUrlsResolve({source: PLUGIN_NAME, buildDir: outDir, siteUrl: siteConfig.url, baseUrl, files: (file) => written.has(file)});
    },
  };
}

type DevResponse = {setHeader(name: string, value: string): void; end(body: string): void};
