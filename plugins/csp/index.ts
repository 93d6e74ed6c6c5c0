// The inline-script hashes change with the theme, so each build writes its own CSP (nginx include and _headers).
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

import {buildPolicy, inlineScriptHashes, nginxInclude} from './policy';
import {headersFile, staticHostRules} from './static-hosts';
import type {PluginOptions} from './options';

export {validateOptions, DEFAULT_OPTIONS, type Options, type PluginOptions} from './options';

export const PLUGIN_NAME = 'docusaurus-plugin-csp';

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {withFileTypes: true, recursive: true});
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

export async function policyForBuild(outDir: string, options: Pick<PluginOptions, 'collectorUrl'>): Promise<string> {
  const hashes = new Set<string>();
  for (const file of await htmlFiles(outDir)) {
    for (const hash of inlineScriptHashes(await readFile(file, 'utf8'))) {
      hashes.add(hash);
    }
  }
  return buildPolicy({scriptHashes: [...hashes], collectorUrl: options.collectorUrl});
}

export default function pluginCsp(_context: LoadContext, options: PluginOptions): Plugin {
  return {
    name: PLUGIN_NAME,
    async postBuild({outDir}) {
      const policy = await policyForBuild(outDir, options);
      const target = path.join(outDir, options.nginxInclude);
      await mkdir(path.dirname(target), {recursive: true});
      await writeFile(target, nginxInclude(policy));
      const headers = path.join(outDir, options.headersFile);
      await mkdir(path.dirname(headers), {recursive: true});
      await writeFile(headers, headersFile(staticHostRules(policy)));
    },
  };
}
