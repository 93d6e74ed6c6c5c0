/**
 * The not-found page answers every unknown path (deploy/nginx.conf's `error_page 404`, `docusaurus serve`), yet the
 * theme's SiteMetadata gives it, as every route, head tags that name a URL of its own: canonical, `og:url` and the
 * hreflang alternates, all pointing at /404.html. They come out of the built file. After hydration the theme's head
 * manager adds them back for the URL asked for; a wrap cannot drop them there without copying SiteMetadata.
 */
import {readFile} from 'node:fs/promises';
import path from 'node:path';

import {writeAtomically} from './css-prune';

export const NOT_FOUND_FILE = '404.html';

/** A tag's attributes, names in lower case; a quoted value is read whole, so text inside it is never a name. */
function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name, ...values] of tag.matchAll(/\s([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    found.set(name!.toLowerCase(), values.find((value) => value !== undefined) ?? '');
  }
  return found;
}

/** Whether a head tag gives its page a URL: a canonical link, an hreflang alternate, or `og:url`. */
export function namesOwnUrl(tag: string): boolean {
  const found = attributes(tag);
  const rel = (found.get('rel') ?? '').toLowerCase().split(/\s+/);
  if (/^<link\b/i.test(tag)) return rel.includes('canonical') || (rel.includes('alternate') && found.has('hreflang'));
  return /^<meta\b/i.test(tag) && found.get('property')?.toLowerCase() === 'og:url';
}

export const withoutOwnUrl = (html: string): string =>
  html.replace(/<(?:link|meta)\b[^>]*>/gi, (tag) => (namesOwnUrl(tag) ? '' : tag));

/** Runs after css-prune, which rewrites the same HTML: one writer at a time. */
export async function dropNotFoundOwnUrl(outDir: string): Promise<void> {
  const file = path.join(outDir, NOT_FOUND_FILE);
  await writeAtomically(file, withoutOwnUrl(await readFile(file, 'utf8')));
}
