// Page-view counting shaped like @docusaurus/plugin-google-gtag; production builds only.
import {mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {HtmlTagObject, LoadContext, Plugin} from '@docusaurus/types';

import {compileScript, type CompiledScript} from './build-script';
import type {PluginOptions} from './options';

export {validateOptions, DEFAULT_OPTIONS, type Options, type PluginOptions} from './options';

export const PLUGIN_NAME = 'docusaurus-plugin-page-views';

export const OFF_SWITCH_ENV = 'DOCS_ANALYTICS';

export function isSwitchedOff(options: Pick<PluginOptions, 'enabled'>, env: NodeJS.ProcessEnv = process.env): boolean {
  return !options.enabled || env[OFF_SWITCH_ENV] === 'off';
}

export function scriptTag(
  {baseUrl, siteUrl}: {baseUrl: string; siteUrl: string},
  options: PluginOptions,
  hash: string,
): HtmlTagObject {
  return {
    tagName: 'script',
    attributes: {
      defer: true,
      src: `${baseUrl}${options.scriptPath}?v=${hash}`,
      'data-api': options.collectorUrl,
      'data-domain': options.domain ?? new URL(siteUrl).host,
      ...(options.allowLocalhost ? {'data-allow-localhost': 'true'} : {}),
    },
  };
}

export default function pluginPageViews(context: LoadContext, options: PluginOptions): Plugin<CompiledScript> | null {
  if (process.env.NODE_ENV !== 'production' || isSwitchedOff(options)) {
    return null;
  }
  const {baseUrl, siteConfig} = context;
  return {
    name: PLUGIN_NAME,
    loadContent: compileScript,
    injectHtmlTags({content}) {
      return {headTags: [scriptTag({baseUrl, siteUrl: siteConfig.url}, options, content.hash)]};
    },
    async postBuild({outDir, content}) {
      const target = path.join(outDir, options.scriptPath);
      await mkdir(path.dirname(target), {recursive: true});
      await writeFile(target, content.code);
    },
  };
}
