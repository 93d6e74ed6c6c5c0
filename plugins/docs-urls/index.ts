/**
 * Docusaurus checks the links it renders, not absolute URLs on our origin (`doc_url`, the downloads).
 * This checks the HTML, complete before any postBuild; plugins that write files check their own, so order is free.
 * It also takes the not-found page's own URL out of its head: that page answers every unknown path.
 */
import {readFile, rename, writeFile} from 'node:fs/promises';
import path from 'node:path';

import type {LoadContext, Plugin} from '@docusaurus/types';

import {assertSiteUrlsResolve} from '../../lib/site-urls';

export const PLUGIN_NAME = 'docs-urls';

export type Options = {
  /** Site paths answered beside the build (the MCP server), which pages may name by absolute URL. */
  alsoServed?: string[];
};

/** The file the web server answers unknown paths with (deploy/nginx.conf, `docusaurus serve`). */
export const NOT_FOUND_FILE = '404.html';

/**
 * The head tags that give a page a URL of its own (canonical, `og:url`, hreflang alternates), taken out. The theme
 * gives every route them, the not-found page's pointing at /404.html, which no reader asked for.
 */
export function withoutOwnUrl(html: string): string {
  return html.replace(/<(?:link|meta)\b[^>]*>/g, (tag) =>
    /\brel=["']?canonical\b/.test(tag) ||
    (/\brel=["']?alternate\b/.test(tag) && /\bhreflang=/i.test(tag)) ||
    /\bproperty=["']?og:url\b/.test(tag)
      ? ''
      : tag,
  );
}

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
      // Other plugins' postBuild may be reading the HTML now: replace the file whole, never half-written.
      const notFound = path.join(outDir, NOT_FOUND_FILE);
      await writeFile(`${notFound}.tmp`, withoutOwnUrl(await readFile(notFound, 'utf8')));
      await rename(`${notFound}.tmp`, notFound);
    },
  };
}
