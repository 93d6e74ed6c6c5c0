/**
 * Docusaurus checks the links it renders, not absolute URLs on our origin (`doc_url`, the downloads).
 * This checks the HTML, complete before any postBuild; plugins that write files check their own, so order is free.
 */
import type {LoadContext, Plugin} from '@docusaurus/types';

import {assertSiteUrlsResolve} from '../../lib/site-urls';

export const PLUGIN_NAME = 'docs-urls';

export type Options = {
  /** Site paths answered beside the build (the MCP server), which pages may name by absolute URL. */
  alsoServed?: string[];
};

export default function pluginDocsUrls(context: LoadContext, options: Options = {}): Plugin<void> {
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
        alsoServed: (options.alsoServed ?? []).map((urlPath) => urlPath.replace(/^\//, '')),
      });
    },
  };
}
