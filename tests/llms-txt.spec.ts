// The docs for AI assistants in the build (plugins/llms-txt): `.md` twins, llms.txt, llms-full.txt. Plain Node tests.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';
import type {Root} from 'mdast';
import type {PluggableList} from 'unified';

import {SITE} from '../src/constants/site';
import {searchIndexFiles} from './support/bytes';
import {BUILD_DIR, builtSidebar, docPages, docRoutes} from './support/docs';

const read = (sitePath: string) => readFileSync(path.join(BUILD_DIR, sitePath), 'utf8');
const siteUrl = (sitePath: string) => new URL(sitePath, SITE.url).href;
/** Where llmstxt.org puts a page's twin (stated here, not taken from the plugin). */
const twinOf = (route: string) => (route === '/' ? '/index.md' : `${route}.md`);

/** HTML that Markdown itself allows in a twin (a hard line break). */
const ALLOWED_HTML = /^<br\s*\/?>$/i;

type Node = {type: string; children?: Node[]; value?: string; url?: string; depth?: number; lang?: string | null};

async function parse(markdown: string, {mdx = false} = {}): Promise<Node> {
  const {unified} = await import('unified');
  const plugins = await Promise.all([
    import('remark-parse'),
    ...(mdx ? [import('remark-mdx')] : []),
    import('remark-gfm'),
  ]);
  return unified()
    .use(plugins.map((plugin) => plugin.default) as PluggableList)
    .parse(markdown) as Root as Node;
}

const nodesOf = (node: Node): Node[] => [node, ...(node.children ?? []).flatMap(nodesOf)];
const textOf = (node: Node): string => node.value ?? (node.children ?? []).map(textOf).join('');

/** The build file a site URL is served from (`docusaurus serve` / any static host). */
function buildFileFor(url: string): string | undefined {
  const {pathname} = new URL(url);
  const candidates = pathname.endsWith('/')
    ? [`${pathname}index.html`]
    : [pathname, `${pathname}.html`, `${pathname}/index.html`];
  return candidates
    .map((candidate) => path.join(BUILD_DIR, decodeURIComponent(candidate)))
    .find((file) => existsSync(file) && !file.endsWith(path.sep));
}

test.describe('Markdown twins (build/**/*.md)', {tag: '@viewport-independent'}, () => {
  // Each twin's title and canonical URL: the llms-full.txt test below, which reads every twin.
  for (const doc of docPages()) {
    test(`${twinOf(doc.path)} is plain Markdown with absolute links, those into the site to files of the build`, async () => {
      const markdown = read(twinOf(doc.path));
      const tree = await parse(markdown);
      const problems: string[] = [];
      for (const node of nodesOf(tree)) {
        if (node.type === 'html' && !ALLOWED_HTML.test((node.value ?? '').trim())) problems.push(`HTML: ${node.value}`);
        if (node.type === 'text' && /\{[A-Z_][\w.]*(?:\([^)]*\))?\}/.test(node.value ?? ''))
          problems.push(`unresolved constant: ${node.value}`);
        if (node.type === 'code' && !node.lang)
          problems.push(`code block without language: ${node.value?.slice(0, 40)}`);
        if (['link', 'image', 'definition'].includes(node.type) && !/^(?:https?|mailto):/.test(node.url ?? ''))
          problems.push(`relative URL: ${node.url}`);
        if (/^(?:link|image)$/.test(node.type) && node.url!.startsWith(`${SITE.url}/`) && !buildFileFor(node.url!))
          problems.push(`not in the build: ${node.url}`);
      }
      // Paragraphs (not code) that are import/export lines.
      for (const node of tree.children ?? [])
        if (node.type === 'paragraph' && /^(?:import|export)\s/m.test(textOf(node)))
          problems.push(`ESM: ${textOf(node)}`);
      expect(problems).toEqual([]);

      // The same text read as MDX holds no JSX, no ESM and no `{…}` expressions either.
      const mdxTypes = nodesOf(await parse(markdown, {mdx: true})).filter((node) => /^mdx/.test(node.type));
      expect([...new Set(mdxTypes.map((node) => node.type))]).toEqual([]);
    });
  }

  test('a tab set becomes a list of its tabs, no heading repeats in a section, diagrams their description, tables stay tables', async () => {
    const quickStart = read(twinOf('/getting-started/quick-start'));
    expect(quickStart).toContain('## Step 1: Get an access token');
    for (const label of ['cURL', 'JavaScript', 'Python']) expect(quickStart).toContain(`\n- ${label}:\n\n  \`\`\``);
    // Every twin: a heading once per section (a tab's label is no heading, so two tab sets repeat none).
    for (const {path: route} of docPages()) {
      const headings = read(twinOf(route))
        .replace(/^ *```[\s\S]*?^ *```/gm, '')
        .split(/\n(?=## )/)
        .flatMap((section) => {
          const seen: string[] = section.match(/^#{3,6} .+$/gm) ?? [];
          return seen.filter((heading, index) => seen.indexOf(heading) !== index);
        });
      expect(headings, `${route}: headings repeated within one section`).toEqual([]);
    }
    expect(quickStart).not.toContain('highlight-next-line');
    const concepts = read(twinOf('/getting-started/main-concepts'));
    expect(concepts).toMatch(/^_Diagram: Order status: [^_\n]+_$/m);
    // The ApiTables components, rendered from the constants: one row per error code, linked to its section.
    const row = `| 400 | [\`invalid_request\`](${siteUrl('/getting-started/main-concepts')}#invalid_request) |`;
    expect(concepts).toContain(row);
    expect(concepts).toContain('\n### invalid_request\n');
    expect(concepts).not.toContain('{#');
  });
});

test.describe('llms.txt and llms-full.txt', {tag: '@viewport-independent'}, () => {
  test('llms.txt: H1 title, blockquote summary, one H2 per sidebar category listing its docs in order; every link resolves to a file in the build', async () => {
    const tree = await parse(read('/llms.txt'));
    const [title, summary, ...rest] = tree.children ?? [];
    expect(title?.type === 'heading' && title.depth, 'an H1 first').toBe(1);
    expect(textOf(title!)).toBe(SITE.title);
    expect(summary?.type).toBe('blockquote');
    expect(summary?.children?.map((child) => child.type)).toEqual(['paragraph']);
    expect(textOf(summary!)).toBe(SITE.description);

    // Optional prose (no headings) before the first section, as the format allows.
    const sections = rest.slice(rest.findIndex((node) => node.type === 'heading'));
    // The same sections, titles and order as the sidebar the build rendered.
    const sidebar = builtSidebar();
    expect(sections.length).toBe(sidebar.length * 2);
    sidebar.forEach((category, index) => {
      const [heading, list] = [sections[index * 2]!, sections[index * 2 + 1]!];
      expect(heading.type === 'heading' && heading.depth === 2 && textOf(heading)).toBe(category.label ?? 'Docs');
      expect(list.type).toBe('list');
      const items = (list.children ?? []).map((item) => {
        expect(item.children?.length).toBe(1);
        const [link, description] = item.children?.[0]?.children ?? [];
        expect([link?.type, description?.type]).toEqual(['link', 'text']);
        expect(description?.value).toMatch(/^: \S/);
        return {title: textOf(link!), url: link!.url};
      });
      expect(items).toEqual(category.pages.map((doc) => ({title: doc.title, url: siteUrl(twinOf(doc.path))})));
    });

    const urls = nodesOf(tree).flatMap((node) => (node.type === 'link' ? [node.url!] : []));
    expect(urls.length).toBe(docRoutes().length + 1);
    expect(urls.filter((url) => !url.startsWith(`${SITE.url}/`) || !buildFileFor(url))).toEqual([]);
  });

  test('llms-full.txt holds every page in sidebar order, each under its title and canonical URL', () => {
    const full = read('/llms-full.txt');
    expect(full.startsWith(`# ${SITE.title}\n\n> ${SITE.description}\n`)).toBe(true);
    let position = 0;
    for (const doc of docPages()) {
      const twin = read(twinOf(doc.path));
      const at = full.indexOf(twin, position);
      expect(at, `${doc.path} after the previous page`).toBeGreaterThan(position);
      expect(twin.startsWith(`# ${doc.title}\n\nURL: ${siteUrl(doc.path)}\n`), doc.path).toBe(true);
      position = at;
    }
  });

  test('neither the sitemap nor the search index lists the Markdown files or the page actions', () => {
    expect(read('/sitemap.xml')).not.toMatch(/\.(?:md|txt)</);
    const indexFiles = searchIndexFiles();
    expect(indexFiles.length).toBeGreaterThan(1);
    for (const file of indexFiles) {
      const index = readFileSync(file, 'utf8');
      // As documents (their URLs); a page may name llms.txt in its prose.
      expect(index).not.toMatch(/"u":"[^"]*(?:\.md|llms(?:-full)?\.txt)"/);
      expect(index).not.toContain('Copy page as Markdown');
      expect(index).not.toContain('View as Markdown');
    }
  });
});
