/**
 * Search-engine files that derive from the site config: `postBuild` writes
 * `robots.txt`, whose `Sitemap:` line is the absolute sitemap URL from `siteConfig.url`
 * (SITE.url in src/constants/site.ts). The sitemap itself comes from the classic preset.
 */
import {writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

import type {PluginOptions} from './options';

export {validateOptions, DEFAULT_OPTIONS, type Options, type PluginOptions} from './options';

export const PLUGIN_NAME = 'docusaurus-plugin-seo';

/** The absolute URL of a file under the base URL: `https://docs.example.com/sitemap.xml`. */
export function absoluteUrl(siteUrl: string, baseUrl: string, file: string): string {
  return `${siteUrl.replace(/\/+$/, '')}${baseUrl}${file}`;
}

export function robotsTxt({siteUrl, baseUrl}: {siteUrl: string; baseUrl: string}, options: PluginOptions): string {
  const rules = options.disallow.length > 0 ? options.disallow.map((prefix) => `Disallow: ${prefix}`) : ['Disallow:'];
  return ['User-agent: *', ...rules, '', `Sitemap: ${absoluteUrl(siteUrl, baseUrl, options.sitemapFilename)}`, ''].join('\n');
}

export default function pluginSeo(context: LoadContext, options: PluginOptions): Plugin {
  const {baseUrl, siteConfig} = context;
  return {
    name: PLUGIN_NAME,
    async postBuild({outDir}) {
      await writeFile(path.join(outDir, 'robots.txt'), robotsTxt({siteUrl: siteConfig.url, baseUrl}, options));
    },
  };
}
