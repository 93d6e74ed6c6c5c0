/**
 * Where a doc's link goes, checked while the page compiles so the error names the source file and line, in
 * `npm start` as in the build (Docusaurus's own checks run after the build and name the built files, and the dev
 * server misses URL links). Both styles: a file path (`../basics/sdk.mdx#errors`) and a URL (`/basics/sdk#errors`).
 * An anchor must be a heading of the target page (its explicit `{#id}` or its slug) or an `id` its text sets.
 */
import {readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';

import {createSlugger, parseMarkdownHeadingId} from '@docusaurus/utils';

type Doc = {anchors: Set<string>};

export type DocLinks = {
  /** What is wrong with `url` written in `fromFile`, or undefined when it resolves. */
  problem(url: string, fromFile: string): string | undefined;
};

const FENCE = /^(```|~~~)[\s\S]*?^\1/gm;

function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const slugger = createSlugger();
  for (const [, heading] of text.replace(FENCE, '').matchAll(/^#{2,6}\s+(.+?)\s*$/gm)) {
    const {text: title, id} = parseMarkdownHeadingId(heading!);
    anchors.add(
      id ??
        slugger.slug(
          title
            .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/<[^>]+>|`/g, '')
            .trim(),
        ),
    );
  }
  for (const [, id] of text.matchAll(/\bid=["'{`]*([\w-]+)/g)) anchors.add(id!);
  return anchors;
}

function docFiles(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? docFiles(file) : /\.mdx?$/.test(entry.name) ? [file] : [];
  });
}

export function docLinks(docsDir: string, routeBasePath = '/'): DocLinks {
  // Re-read when a page changes: `npm start` compiles the edited page with today's headings of the others.
  const cache = new Map<string, {mtimeMs: number; doc: Doc}>();
  const docOf = (file: string): Doc => {
    const {mtimeMs} = statSync(file);
    const cached = cache.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached.doc;
    const doc = {anchors: anchorsOf(readFileSync(file, 'utf8'))};
    cache.set(file, {mtimeMs, doc});
    return doc;
  };
  const routeOf = (file: string) => {
    const slug = /^slug:\s*(\S+)\s*$/m.exec(readFileSync(file, 'utf8').split(/^---\s*$/m)[1] ?? '')?.[1];
    const own =
      slug ??
      `/${path
        .relative(docsDir, file)
        .replace(/\.mdx?$/, '')
        .split(path.sep)
        .join('/')}`;
    return path.posix.join(routeBasePath, own).replace(/(.)\/$/, '$1');
  };
  const docRoutes = () => new Map(docFiles(docsDir).map((file) => [routeOf(file), file]));
  const isDocRoute = (urlPath: string) =>
    urlPath === routeBasePath ||
    readdirSync(docsDir, {withFileTypes: true}).some(
      (entry) => entry.isDirectory() && urlPath.startsWith(path.posix.join(routeBasePath, entry.name, '/')),
    );

  return {
    problem(url, fromFile) {
      const [target = '', anchor] = url.split('#');
      let file: string | undefined;
      if (target === '') {
        file = fromFile;
      } else if (/^[a-z][\w+.-]*:|^\/\//i.test(target)) {
        return undefined; // another site, or pathname:// (a static file)
      } else if (/\.mdx?$/.test(target)) {
        file = path.resolve(path.dirname(fromFile), decodeURI(target));
        try {
          statSync(file);
        } catch {
          return `link to "${url}": no such file ${path.relative(docsDir, file)} in the docs`;
        }
      } else if (target.startsWith('/')) {
        const urlPath = target.replace(/(.)\/$/, '$1');
        if (!isDocRoute(urlPath)) return undefined; // not a doc: an API file, /search, a static asset
        file = docRoutes().get(urlPath);
        if (!file) return `link to "${url}": no doc page has the URL ${urlPath}`;
      } else {
        return undefined;
      }
      if (anchor && !docOf(file).anchors.has(anchor)) {
        return `link to "${url}": ${path.relative(docsDir, file)} has no heading or id "#${anchor}"`;
      }
      return undefined;
    },
  };
}
