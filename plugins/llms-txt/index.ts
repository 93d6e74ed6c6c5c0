/**
 * llms-txt (issue 7): the docs for AI assistants, written into the build by `postBuild`.
 *
 * - `/llms.txt`: the site title (H1), a one-paragraph summary (blockquote), then one H2 per sidebar
 *   category listing each doc's Markdown twin with its front-matter description (llmstxt.org);
 * - `/llms-full.txt`: every doc's Markdown in sidebar order, each under its title and canonical URL;
 * - a Markdown twin of every doc at its URL plus `.md` (`/index.md` for `/`), see markdown.ts.
 *
 * `allContentLoaded` notes the docs and the sidebar (from the docs plugin). In a production build it
 * also starts the conversion (convert.ts: about 0.7 s of remark work) in a worker thread, so it
 * overlaps Docusaurus's own work instead of delaying the bundling or adding to `postBuild`;
 * `postBuild` awaits it and writes the files. `docusaurus start` does no work for it.
 * `enabled: false` or DOCS_LLMS=off leaves the plugin out.
 */
import {mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';

import type {LoadContext, Plugin} from '@docusaurus/types';
import type {LoadedContent as DocsContent} from '@docusaurus/plugin-content-docs';

import type {ConvertJob} from './convert';
import type {PluginOptions} from './options';
import {twinPath} from './twinPath';
import {contractData, type ContractData} from '../api-artifacts/contract-data';
import {assertSiteUrlsResolve} from '../docs-urls/check';
import type {Artifacts} from '../api-artifacts/generate';
import {runInWorker} from '../support/worker';

export {validateOptions, DEFAULT_OPTIONS, type Options, type PluginOptions} from './options';
export {twinPath} from './twinPath';

export const PLUGIN_NAME = 'docusaurus-plugin-llms-txt';

/** The environment variable that switches the plugin off for one build: `DOCS_LLMS=off`. */
export const OFF_SWITCH_ENV = 'DOCS_LLMS';

// convert.ts (remark and its plugins) is loaded lazily: a production build loads it only in the worker thread.
const CONVERT_MODULE = require.resolve('./convert');

export const LLMS_TXT = '/llms.txt';
export const LLMS_FULL_TXT = '/llms-full.txt';

export function isSwitchedOff(options: Pick<PluginOptions, 'enabled'>, env: NodeJS.ProcessEnv = process.env): boolean {
  return !options.enabled || env[OFF_SWITCH_ENV] === 'off';
}

export type LlmsPage = {
  title: string;
  description: string;
  /** Site path of the page, with the base URL: `/getting-started/quick-start`. */
  permalink: string;
  /** Absolute path of its MDX source. */
  sourcePath: string;
};

export type LlmsSection = {label: string; pages: LlmsPage[]};


type SidebarItem = {type: string; label?: string; id?: string; items?: SidebarItem[]; link?: {type: string; id?: string}};

/** The docs of the sidebar, one section per top-level category (top-level docs form a section of their own). */
export function collectSections(content: DocsContent, sidebarId: string, siteDir: string): LlmsSection[] {
  const version = content.loadedVersions.find((candidate) => candidate.versionName === 'current') ?? content.loadedVersions[0];
  const sidebar = version?.sidebars[sidebarId] as SidebarItem[] | undefined;
  if (!version || !sidebar) {
    throw new Error(`${PLUGIN_NAME}: the docs have no sidebar "${sidebarId}".`);
  }
  const docsById = new Map(version.docs.map((doc) => [doc.id, doc]));
  const page = (id: string): LlmsPage => {
    const doc = docsById.get(id);
    if (!doc) {
      throw new Error(`${PLUGIN_NAME}: the sidebar lists "${id}", which is not a doc.`);
    }
    const description = doc.frontMatter.description ?? doc.description;
    return {
      title: doc.title,
      description: description.replace(/\s+/g, ' ').trim(),
      permalink: doc.permalink,
      sourcePath: path.resolve(siteDir, doc.source.replace(/^@site\//, '')),
    };
  };
  const docIds = (items: readonly SidebarItem[]): string[] =>
    items.flatMap((item) => {
      if (item.type === 'doc' || item.type === 'ref') {
        return item.id ? [item.id] : [];
      }
      if (item.type === 'category') {
        return [...(item.link?.type === 'doc' && item.link.id ? [item.link.id] : []), ...docIds(item.items ?? [])];
      }
      return [];
    });

  const sections: LlmsSection[] = [];
  for (const item of sidebar) {
    if (item.type === 'category') {
      sections.push({label: item.label ?? 'Docs', pages: docIds([item]).map(page)});
    } else {
      const pages = docIds([item]).map(page);
      const last = sections.at(-1);
      if (last?.label === 'Docs') {
        last.pages.push(...pages);
      } else if (pages.length > 0) {
        sections.push({label: 'Docs', pages});
      }
    }
  }
  return sections;
}

type SiteInfo = {
  title: string;
  summary: string;
  /** The site's base URL, `/`. */
  baseUrl: string;
  /** Absolute URL of a site path (one that starts with the base URL). */
  url: (sitePath: string) => string;
};

/** llms.txt in the llmstxt.org format. */
export function renderLlmsTxt(site: SiteInfo, sections: readonly LlmsSection[]): string {
  const lines = [
    `# ${site.title}`,
    '',
    `> ${site.summary}`,
    '',
    `Every page below is linked as Markdown. All pages in one file: [llms-full.txt](${site.url(`${site.baseUrl}${LLMS_FULL_TXT.slice(1)}`)}).`,
  ];
  for (const section of sections) {
    lines.push('', `## ${section.label}`, '');
    for (const page of section.pages) {
      lines.push(`- [${escapeLinkText(page.title)}](${site.url(twinPath(page.permalink))}): ${page.description}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function escapeLinkText(text: string): string {
  return text.replace(/[[\]\\]/g, '\\$&');
}

/** One page's Markdown: its title, canonical URL, description, then the converted body. */
export function renderPage(page: LlmsPage, body: string, site: Pick<SiteInfo, 'url'>): string {
  return `# ${page.title}\n\nURL: ${site.url(page.permalink)}\n\n> ${page.description}\n\n${body.trim()}\n`;
}

type RenderedPage = {page: LlmsPage; markdown: string};

/** llms-full.txt: the site title and summary, then every page in sidebar order. */
export function renderLlmsFull(site: SiteInfo, pages: ReadonlyArray<{page: LlmsPage; markdown: string}>): string {
  return [`# ${site.title}\n\n> ${site.summary}\n`, ...pages.map(({markdown}) => markdown)].join('\n');
}

async function writeSiteFile(outDir: string, sitePath: string, baseUrl: string, content: string): Promise<void> {
  const file = path.join(outDir, ...sitePath.slice(baseUrl.length).split('/'));
  await mkdir(path.dirname(file), {recursive: true});
  await writeFile(file, content);
}

export default function pluginLlmsTxt(context: LoadContext, options: PluginOptions): Plugin<void> | null {
  if (isSwitchedOff(options)) {
    return null;
  }
  const {siteConfig, siteDir, baseUrl} = context;
  const url = (sitePath: string) => new URL(sitePath, siteConfig.url).href;
  const site: SiteInfo = {title: siteConfig.title, summary: options.summary ?? siteConfig.tagline, baseUrl, url};
  let sections: LlmsSection[] = [];
  let contract: ContractData | undefined;
  let rendering: Promise<RenderedPage[]> | undefined;

  const convertJob = (): ConvertJob => ({
    pages: sections.flatMap((section) => section.pages).map(({sourcePath, permalink}) => ({sourcePath, permalink})),
    siteUrl: siteConfig.url,
    baseUrl,
    siteDir,
    staticDirs: siteConfig.staticDirectories.map((dir) => path.resolve(siteDir, dir)),
    contract: contract!,
  });
  const renderAll = async (bodies: Promise<string[]>): Promise<RenderedPage[]> => {
    const pages = sections.flatMap((section) => section.pages);
    const converted = await bodies;
    return pages.map((page, index) => ({page, markdown: renderPage(page, converted[index]!, site)}));
  };
  const convertInProcess = async (job: ConvertJob) => (await import('./convert')).convertPages(job);

  return {
    name: PLUGIN_NAME,

    allContentLoaded({allContent}) {
      const docs = allContent['docusaurus-plugin-content-docs']?.[options.docsPluginId] as DocsContent | undefined;
      if (!docs) {
        throw new Error(`${PLUGIN_NAME}: no docs plugin with id "${options.docsPluginId}".`);
      }
      sections = collectSections(docs, options.sidebarId, siteDir);
      const artifacts = allContent['api-artifacts']?.default as Artifacts | undefined;
      if (!artifacts) {
        throw new Error(`${PLUGIN_NAME}: the api-artifacts plugin must be registered (pages render the contract's facts).`);
      }
      contract = contractData(artifacts);
      if (process.env.NODE_ENV === 'production') {
        rendering = renderAll(runInWorker<string[]>(CONVERT_MODULE, 'convertPages', [convertJob()]));
        // Reported by postBuild, which awaits it; never an unhandled rejection meanwhile.
        rendering.catch(() => undefined);
      }
    },

    async postBuild({outDir, plugins}) {
      const rendered = await (rendering ?? renderAll(convertInProcess(convertJob())));
      await Promise.all([
        ...rendered.map(({page, markdown}) => writeSiteFile(outDir, twinPath(page.permalink), baseUrl, markdown)),
        writeSiteFile(outDir, `${baseUrl}${LLMS_TXT.slice(1)}`, baseUrl, renderLlmsTxt(site, sections)),
        writeSiteFile(outDir, `${baseUrl}${LLMS_FULL_TXT.slice(1)}`, baseUrl, renderLlmsFull(site, rendered)),
      ]);
      // Their links must name built pages and anchors. The API downloads they link to are written by
      // api-artifacts' postBuild, which may still be running: they count as served.
      const written = new Set([...rendered.map(({page}) => twinPath(page.permalink)), `${baseUrl}${LLMS_TXT.slice(1)}`, `${baseUrl}${LLMS_FULL_TXT.slice(1)}`]);
      const artifacts = plugins.find((plugin) => plugin.name === 'api-artifacts')?.content as Artifacts | undefined;
      await assertSiteUrlsResolve({
        source: PLUGIN_NAME,
        buildDir: outDir,
        siteUrl: siteConfig.url,
        baseUrl,
        files: (file) => written.has(`${baseUrl}${file}`),
        alsoServed: [...(artifacts?.keys() ?? [])].map((urlPath) => urlPath.slice(1)),
      });
    },
  };
}
