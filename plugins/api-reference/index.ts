// The OpenAPI and Postman downloads, and the contract and SDK data pages render, from one rendering of the contract.
// Code blocks in that data come highlighted (lib/highlight), as fences do: the browser has no Prism.
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';

import type {LoadContext, Plugin} from '@docusaurus/types';
import {parse} from 'yaml';

import {assertSiteUrlsResolve} from '../../lib/site-urls';
import {DECLARATION, extractSdkMethods, sdkCoverage, type SdkMethodRow} from '../../lib/sdk-surface';
import {contractData, postmanScriptBlocks} from '../../lib/contract/data';
import {webhookEventBlocks, webhookEventExamples} from '../../lib/contract/webhooks';
import type {OpenApiDocument} from '../../lib/contract/openapi';
import {ARTIFACTS, SAMPLES} from '../../src/constants/api';
import {apiFacts} from '../../lib/contract/facts';
import {generateArtifacts, type Artifacts} from '../../lib/contract/artifacts';
import {loadHighlighter} from '../../lib/highlight';
import type {PluginOptions} from './options';

export {validateOptions} from './options';

export const PLUGIN_NAME = 'api-reference';

type Content = {artifacts: Artifacts; sdkMethods: SdkMethodRow[]};

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

export default function pluginApiReference(context: LoadContext, options: PluginOptions): Plugin<Content> {
  const sourcePath = path.resolve(context.siteDir, options.source);
  const declarationPath = path.join(context.siteDir, DECLARATION);
  let artifacts: Artifacts = new Map();
  return {
    name: PLUGIN_NAME,

    getPathsToWatch() {
      return [sourcePath, declarationPath];
    },

    async loadContent() {
      artifacts = await generateArtifacts(await readFile(sourcePath, 'utf8'), apiFacts(options.brand));
      const sdkMethods = extractSdkMethods(await readFile(declarationPath, 'utf8'), DECLARATION);
      return {artifacts, sdkMethods};
    },

    async contentLoaded({content, actions}) {
      // The served document, as the downloads and contract.json read it.
      const document = parse(content.artifacts.get(ARTIFACTS.openapi)!) as OpenApiDocument;
      const contract = contractData(content.artifacts);
      const highlight = await loadHighlighter(options.highlight);
      await actions.createData('contract.json', JSON.stringify(contract));
      await actions.createData('sdk-methods.json', JSON.stringify(content.sdkMethods));
      // Separate files, so only the page that renders them loads them.
      await actions.createData('sdk-coverage.json', JSON.stringify(sdkCoverage(content.sdkMethods, document)));
      const events = webhookEventBlocks(webhookEventExamples(document), highlight, SAMPLES.webhookTestVector.event);
      await actions.createData('webhook-events.json', JSON.stringify(events));
      await actions.createData(
        'postman-scripts.json',
        JSON.stringify(postmanScriptBlocks(contract.postman, highlight)),
      );
    },

    // Dev server only. webpack-merge concatenates both setupMiddlewares' results, so this one only puts its
    // middleware first in the shared array (before the SPA fallback, which would answer with index.html).
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
      await writeArtifacts(content.artifacts, outDir);
      // Their URLs of this site (`doc_url` examples, descriptions) must name built pages and anchors.
      const written = new Set([...content.artifacts.keys()].map((urlPath) => urlPath.slice(1)));
      await assertSiteUrlsResolve({
        source: PLUGIN_NAME,
        buildDir: outDir,
        siteUrl: siteConfig.url,
        baseUrl,
        files: (file) => written.has(file),
      });
    },
  };
}

type DevResponse = {setHeader(name: string, value: string): void; end(body: string): void};
