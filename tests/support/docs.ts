/**
 * The doc pages of a production build, for the tests and benchmarks: the one page list. Routes come
 * from build/sitemap.xml, which lists exactly the docs (its ignorePatterns leave out /search and the
 * crash-test page); titles, grouping and order from the sidebar the build rendered. A new page under
 * docs/ is covered by every route-driven test without editing one.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';

export const BUILD_DIR = path.resolve(__dirname, '../../build');

export type DocPage = {path: string; title: string};
/** A top-level sidebar item: a category (`label`) or, for top-level docs, `label: null`. */
export type SidebarGroup = {label: string | null; pages: DocPage[]};

function readBuildFile(buildDir: string, file: string): string {
  const absolute = path.join(buildDir, file);
  if (!existsSync(absolute)) {
    throw new Error(`${absolute} is missing: build the site first (npm run build:e2e).`);
  }
  return readFileSync(absolute, 'utf8');
}

/** The HTML file a route is written to (`trailingSlash: false`: `/a/b` → `a/b.html`). */
export function htmlFile(route: string, buildDir: string = BUILD_DIR): string {
  const candidates = route === '/' ? ['index.html'] : [`${route.slice(1)}.html`, `${route.slice(1)}/index.html`];
  return path.join(buildDir, candidates.find((file) => existsSync(path.join(buildDir, file))) ?? candidates[0]!);
}

/** Every doc route, site-relative (`/`, `/basics/sdk`), as build/sitemap.xml lists them. */
export function docRoutes(buildDir: string = BUILD_DIR): string[] {
  const sitemap = readBuildFile(buildDir, 'sitemap.xml');
  const routes = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  if (routes.length === 0) {
    throw new Error(`${path.join(buildDir, 'sitemap.xml')} lists no page.`);
  }
  return routes;
}

const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();

const attribute = (attributes: string, name: string) =>
  new RegExp(`(?:^|\\s)${name}=(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`)
    .exec(attributes)
    ?.slice(1)
    .find((value) => value !== undefined);

/**
 * The docs sidebar as the build rendered it (server-side, in the page of `route`): its top-level
 * categories with their labels and, in order, the title and path of every doc link under each.
 */
export function builtSidebar(buildDir: string = BUILD_DIR, route = '/'): SidebarGroup[] {
  const html = readFileSync(htmlFile(route, buildDir), 'utf8');
  const nav = /<nav aria-label="Docs sidebar"[\s\S]*?<\/nav>/.exec(html)?.[0];
  if (!nav) {
    throw new Error(`${htmlFile(route, buildDir)} has no docs sidebar.`);
  }
  const groups: SidebarGroup[] = [];
  // Each item is an <li> whose class names its kind and level, then its first link (a category's label).
  for (const item of nav.matchAll(/<li class="?([^">]*)"?>[\s\S]*?<a ([^>]*)>([\s\S]*?)<\/a>/g)) {
    const [, classes = '', attributes = '', text = ''] = item;
    const category = /theme-doc-sidebar-item-category-level-(\d+)/.exec(classes);
    const link = /theme-doc-sidebar-item-link-level-(\d+)/.exec(classes);
    if (category?.[1] === '1') {
      groups.push({label: decode(text), pages: []});
    } else if (link) {
      const href = attribute(attributes, 'href');
      if (!href) continue;
      const page = {path: href, title: decode(text)};
      if (link[1] === '1') {
        groups.push({label: null, pages: [page]});
      } else {
        groups.at(-1)?.pages.push(page);
      }
    }
  }
  return groups;
}

/**
 * Every doc page of the sitemap with the title the build shows for it, in sidebar order (a page kept
 * off the sidebar comes last, titled by its <h1>; tests/routes.spec.ts fails on one).
 */
export function docPages(buildDir: string = BUILD_DIR): DocPage[] {
  const routes = docRoutes(buildDir);
  const inSidebar = builtSidebar(buildDir)
    .flatMap((group) => group.pages)
    .filter(
      (page, index, all) => routes.includes(page.path) && all.findIndex((other) => other.path === page.path) === index,
    );
  const offSidebar = routes
    .filter((route) => !inSidebar.some((page) => page.path === route))
    .map((route) => ({
      path: route,
      title: decode(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(readFileSync(htmlFile(route, buildDir), 'utf8'))?.[1] ?? ''),
    }));
  return [...inSidebar, ...offSidebar];
}
