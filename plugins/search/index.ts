// The search theme (@easyops-cn/docusaurus-search-local) with every change this site makes to it, in one place
// to re-check on upgrade: its index split into parts after its postBuild, its worker replaced, module aliases.
import {createHash} from 'node:crypto';
import {mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, LoadedPlugin, Plugin} from '@docusaurus/types';
import type {PluginOptions} from '@easyops-cn/docusaurus-search-local';

import searchAskAiOff from './ask-ai-off';
import searchCodeTerms from './code-terms';
import searchHighlightGuard from './highlight-guard';
import {CURRENT_INDEX_FILE, MANIFEST_FILE, PARTS_DIR, splitIndex, type IndexPart} from '../../lib/search/index-parts';

// The theme's server entry (its package types describe only the options).
const searchLocal = require('@easyops-cn/docusaurus-search-local') as {
  default: (context: LoadContext, options: PluginOptions) => Plugin;
  validateOptions: (args: {options: PluginOptions; validate: unknown}) => PluginOptions;
};
export const validateOptions = searchLocal.validateOptions;

type Aliases = {resolve?: {alias?: Record<string, string | false>}};

type DocsContent = {loadedVersions: {docs: {permalink: string; frontMatter: {news?: unknown}}[]}[]};

/** The pages whose front matter says `news: true` (the changelog): search lists them after the others. */
export function newsPages(plugins: readonly LoadedPlugin[]): string[] {
  return plugins
    .filter(({name}) => name === 'docusaurus-plugin-content-docs')
    .flatMap(({content}) => (content as DocsContent).loadedVersions)
    .flatMap(({docs}) => docs.filter(({frontMatter}) => frontMatter.news === true).map(({permalink}) => permalink));
}

/** Replaces each index file the plugin wrote by its manifest, and writes the parts. */
export function shardSearchIndexes(outDir: string, news: readonly string[] = []): void {
  const partsDir = path.join(outDir, PARTS_DIR);
  rmSync(partsDir, {recursive: true, force: true});
  mkdirSync(partsDir, {recursive: true});
  const manifests = readdirSync(outDir).filter((file) => MANIFEST_FILE.test(file));
  // The MCP server reads the one index that CURRENT_INDEX_FILE names.
  if (manifests.length > 1) throw new Error(`[search] one search index expected, found ${manifests.join(', ')}`);
  for (const name of manifests) {
    const file = path.join(outDir, name);
    const parts = JSON.parse(readFileSync(file, 'utf8')) as IndexPart[];
    const manifest = splitIndex(
      parts,
      (json) => {
        const partName = `${createHash('sha256').update(json).digest('hex').slice(0, 16)}.json`;
        writeFileSync(path.join(partsDir, partName), json);
        return `${PARTS_DIR}/${partName}`;
      },
      news,
    );
    writeFileSync(file, JSON.stringify(manifest));
    writeFileSync(path.join(outDir, CURRENT_INDEX_FILE), name);
  }
}

export function workerModule(): string {
  return require.resolve('@easyops-cn/docusaurus-search-local/dist/client/client/theme/worker.js');
}

export default function searchPlugin(context: LoadContext, options: PluginOptions): Plugin {
  const languages = [options.language ?? 'en'].flat();
  if (languages.some((language) => language !== 'en')) {
    // lib/search/tokenize.ts reads English queries only.
    throw new Error(`[search] reads English queries only; the search plugin is set to ${languages.join(', ')}.`);
  }
  const theme = searchLocal.default(context, options);
  const parts = [searchCodeTerms(), searchAskAiOff(options), searchHighlightGuard()];
  const worker = workerModule();
  const replacement = path.resolve(__dirname, 'worker.ts');
  return {
    ...theme,
    configureWebpack(...args) {
      const aliases = parts.map(
        (part) => (part.configureWebpack?.(...args) as Aliases | undefined)?.resolve?.alias ?? {},
      );
      // searchByWorker.js starts it by a relative path: alias the resolved file, with and without its extension.
      const workerAlias = {[`${worker}$`]: replacement, [`${worker.replace(/\.js$/, '')}$`]: replacement};
      return {resolve: {alias: Object.assign({}, ...aliases, workerAlias)}};
    },
    async postBuild(props) {
      await theme.postBuild?.(props);
      shardSearchIndexes(props.outDir, newsPages(props.plugins));
    },
  };
}
