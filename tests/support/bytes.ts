// Gzip sizes of what the build ships (a route's JS and CSS, the search index), read from build/ with no server:
// tests/budgets.spec.ts holds them to tests/budgets.json, the benches print them.
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {gzipSync} from 'node:zlib';

import {DEFAULT_OPTIONS as PAGE_VIEWS_DEFAULTS} from '../../plugins/page-views/options';
import {MANIFEST_FILE, PARTS_DIR, type Manifest, type SearchDocument} from '../../lib/search/index-parts';

import {BUILD_DIR, htmlFile} from './docs';

export {BUILD_DIR};

/** zlib level used for every gzip figure (the best a server can send with gzip). */
export const GZIP_LEVEL = 9;

/** Byte budgets, gzip, in bytes. KiB = 1024 B. */
export type Budgets = {
  /** All `<script src>` files one route's HTML references: runtime~main, main, the analytics script. */
  routeJs: number;
  /** All `<link rel="stylesheet">` files one route's HTML references. */
  routeCss: number;
  /** The search index's files (searchIndexFiles), all of them together, per doc page of the sitemap. */
  searchIndexPerPage: number;
  analyticsScript: number;
};

export function loadBudgets(): Budgets {
  return (JSON.parse(readFileSync(path.resolve(__dirname, '../budgets.json'), 'utf8')) as {gzipBytes: Budgets})
    .gzipBytes;
}

export function gzipSize(file: string): number {
  return gzipSync(readFileSync(file), {level: GZIP_LEVEL}).length;
}

export type Asset = {url: string; file: string; raw: number; gzip: number};
export type RouteAssets = {route: string; js: Asset[]; css: Asset[]; jsGzip: number; cssGzip: number};

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined);
}

/** Same-origin URLs of the scripts (`<script src>`) and stylesheets (`<link rel=stylesheet>`) of an HTML page. */
function referencedUrls(html: string): {js: string[]; css: string[]} {
  const js = [...html.matchAll(/<script\b[^>]*>/gi)]
    .map((match) => attribute(match[0], 'src'))
    .filter((src): src is string => !!src);
  const css = [...html.matchAll(/<link\b[^>]*>/gi)]
    .filter((match) => /^stylesheet$/i.test(attribute(match[0], 'rel') ?? ''))
    .map((match) => attribute(match[0], 'href'))
    .filter((href): href is string => !!href);
  return {js, css};
}

function asset(url: string, buildDir: string): Asset {
  if (/^(?:[a-z]+:)?\/\//i.test(url)) {
    throw new Error(`third-party asset ${url}: budgets only cover files served from build/`);
  }
  const file = path.join(buildDir, decodeURIComponent(url.split(/[?#]/)[0]!));
  if (!existsSync(file)) {
    throw new Error(`${url} is referenced but ${path.relative(buildDir, file)} is not in the build`);
  }
  return {url, file, raw: readFileSync(file).length, gzip: gzipSize(file)};
}

export function routeAssets(route: string, buildDir: string = BUILD_DIR): RouteAssets {
  const {js, css} = referencedUrls(readFileSync(htmlFile(route, buildDir), 'utf8'));
  const jsAssets = js.map((url) => asset(url, buildDir));
  const cssAssets = css.map((url) => asset(url, buildDir));
  const sum = (assets: Asset[]) => assets.reduce((total, item) => total + item.gzip, 0);
  return {route, js: jsAssets, css: cssAssets, jsGzip: sum(jsAssets), cssGzip: sum(cssAssets)};
}

const manifests = (buildDir: string) => readdirSync(buildDir).filter((name) => MANIFEST_FILE.test(name));

/** The search index: its manifest in the build's root and its parts (lib/search/index-parts.ts). */
export function searchIndexFiles(buildDir: string = BUILD_DIR): string[] {
  const partsDir = path.join(buildDir, PARTS_DIR);
  const parts = existsSync(partsDir) ? readdirSync(partsDir).filter((name) => name.endsWith('.json')) : [];
  return [
    ...manifests(buildDir).map((name) => path.join(buildDir, name)),
    ...parts.map((name) => path.join(partsDir, name)),
  ];
}

/** Every document the search index holds (titles, headings, descriptions, keywords, content). */
export function searchIndexDocuments(buildDir: string = BUILD_DIR): SearchDocument[] {
  const read = (file: string) => JSON.parse(readFileSync(path.join(buildDir, file), 'utf8'));
  return manifests(buildDir).flatMap((name) => {
    const manifest = read(name) as Manifest;
    const split = manifest.split.flatMap((type) =>
      type.documentParts.flatMap(({file: part}) => read(part) as SearchDocument[]),
    );
    return [...manifest.titles.documents, ...split];
  });
}

/** The analytics script's path in the build (plugins/page-views). */
export const ANALYTICS_SCRIPT = PAGE_VIEWS_DEFAULTS.scriptPath;

export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
