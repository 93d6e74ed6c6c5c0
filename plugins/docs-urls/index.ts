/**
 * docs-urls: fails the build when a served file points at a page or anchor of this site that the
 * build lacks (check.ts). Docusaurus's own check covers the links it renders, not absolute URLs on
 * our own origin: `doc_url` in code blocks, openapi.yaml, the Postman files, the llms files.
 *
 * This plugin's `postBuild` checks the HTML pages, which Docusaurus writes before any `postBuild`
 * starts. The plugins that write served files in their own `postBuild` (api-reference, llms-txt)
 * check those files there, with `assertSiteUrlsResolve`; so the order of the plugins is free.
 */
import type {LoadContext, Plugin} from '@docusaurus/types';

import {assertSiteUrlsResolve} from '../../lib/site-urls';

export const PLUGIN_NAME = 'docs-urls';

export default function pluginDocsUrls(context: LoadContext): Plugin<void> {
  const {siteConfig, baseUrl} = context;
  return {
    name: PLUGIN_NAME,

    async postBuild({outDir}) {
      await assertSiteUrlsResolve({
        source: PLUGIN_NAME,
        buildDir: outDir,
        siteUrl: siteConfig.url,
        baseUrl,
        files: (file) => file.endsWith('.html'),
      });
    },
  };
}
