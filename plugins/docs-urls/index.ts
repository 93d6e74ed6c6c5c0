/**
 * Docusaurus checks the links it renders, not absolute URLs on our origin (`doc_url`, the downloads).
 * This checks the HTML, complete before any postBuild; plugins that write files check their own, so order is free.
 */
import type {LoadContext, Plugin} from '@docusaurus/types';

import {assertSiteUrlsResolve} from '../../lib/site-urls';
import {MCP} from '../../src/constants/site';

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
        // The pages name the MCP server's URL; it is a process beside the site, not a built file.
        alsoServed: [MCP.path.replace(/^\//, '')],
      });
    },
  };
}
