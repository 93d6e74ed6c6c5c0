/**
 * What the MCP server knows, read only from a production build (the files the site serves): the
 * search index, the Markdown twins and /openapi.yaml. Search runs the search plugin's own query code
 * (its smart queries, fuzzy matching and sorting) with this site's tokenizer, as the search box does.
 */
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';

import createJiti from 'jiti';
import {parse as parseYaml} from 'yaml';

import {listOperations, type OpenApiDocument} from '../lib/contract/openapi';
import {boundQuery} from '../lib/search-query';
import {twinPath} from '../lib/twin-path';
import {CURRENT_INDEX_FILE, isManifest, MANIFEST_FILE} from '../lib/search/index-parts';
import type * as ShardedSearch from '../lib/search/sharded-index';
import {tokenize} from '../lib/search/tokenize';
import {SITE} from '../src/constants/site';
import {
  findOperation,
  distance,
  nearness,
  findSchema,
  operationDetail,
  type OperationDetail,
  type SchemaDetail,
} from './operations';
import {searchResultLimits} from '../lib/search/generated-constants';
import {
  CHARS_PER_TOKEN,
  DEFAULT_PAGE_TOKENS,
  openingText,
  outline,
  parsePage,
  renderSection,
  type ParsedPage,
  type Rendered,
  type Section,
} from './sections';

// The box's search code (lib/search/sharded-index.ts) imports the plugin's browser ESM, which imports generated
// constants: loaded with those aliased to the site's options.
const jiti = createJiti(__filename, {
  interopDefault: true,
  alias: {'./proxiedGeneratedConstants': path.join(__dirname, '../lib/search/generated-constants.ts')},
});
const {ShardedIndex} = jiti(path.join(__dirname, '../lib/search/sharded-index.ts')) as typeof ShardedSearch;

export type SearchHit = {title: string; section: string | null; url: string; text: string};
export type PageOptions = {languages?: readonly string[]; maxTokens?: number};
export type PageAnswer = {
  url: string;
  title: string;
  section: string | null;
  markdown: string;
  /** Sub-sections left out to stay within max_tokens: ask for each by its URL. */
  leftOut: {heading: string; url: string}[];
};
export type Operation = OperationDetail;

/** `docs.example.com/basics/sdk` as the URL it means, not as a path. */
const withScheme = (url: string) => (/^[\w-]+(\.[\w-]+)+(:\d+)?(\/|$)/.test(url) ? `https://${url}` : url);

/** Characters of a search hit's opening text. */
const OPENING_LENGTH = 240;

/** An anchor as written in a URL; one that is not valid percent-encoding (`#%`) is taken as it is. */
function decodedAnchor(hash: string): string {
  try {
    return decodeURIComponent(hash);
  } catch {
    return hash;
  }
}

/**
 * The build's search index file, as the build names it: a build writes a new one whenever the index changes, and a
 * deploy that keeps the last build's files (or rolls back to it) leaves the other one beside it.
 */
function indexFile(buildDir: string): string {
  const named = (() => {
    try {
      return readFileSync(path.join(buildDir, CURRENT_INDEX_FILE), 'utf8').trim();
    } catch {
      return undefined;
    }
  })();
  const files = readdirSync(buildDir).filter((name) => MANIFEST_FILE.test(name));
  if (named !== undefined && files.includes(named)) return named;
  if (named === undefined && files.length === 1) return files[0]!;
  throw new Error(
    `${buildDir} has ${files.length ? `no search index named by ${CURRENT_INDEX_FILE}` : 'no search index'}: redeploy the whole build`,
  );
}

/** One file as found: inode, size and modification time, or missing. */
function statOf(buildDir: string, file: string): string {
  try {
    const {ino, size, mtimeMs} = statSync(path.join(buildDir, file));
    return `${file} ${ino} ${size} ${mtimeMs}`;
  } catch {
    return `${file} missing`;
  }
}

/** One build as read: replaced whole when the build under the server changes. */
type Loaded = {
  /**
   * Every file looked at up front (index, contract, sitemap, each page's twin and HTML, missing ones too), each as
   * found just before it was read: a deploy that changes any of them, even one that leaves the index as it was, is
   * seen at the next call.
   */
  stamps: Map<string, string>;
  index: ShardedSearch.ShardedIndex;
  pages: Map<string, ParsedPage>;
  document: OpenApiDocument;
  /** Part files that could not be read (a build is broken, or replaced, while it is searched). */
  missingParts: {files: Set<string>; reads: number};
  operationList?: Operation[];
};

export class BuiltDocs {
  private loaded: Loaded;

  constructor(readonly buildDir: string) {
    this.loaded = this.load();
  }

  private load(): Loaded {
    const {buildDir} = this;
    const stamps = new Map<string, string>();
    // Stamped before it is read: a file rewritten meanwhile differs from its stamp at the next call.
    const read = (file: string) => {
      stamps.set(file, statOf(buildDir, file));
      return readFileSync(path.join(buildDir, file), 'utf8');
    };
    stamps.set(CURRENT_INDEX_FILE, statOf(buildDir, CURRENT_INDEX_FILE));
    const indexName = indexFile(buildDir);
    const manifest: unknown = JSON.parse(read(indexName));
    if (!isManifest(manifest)) throw new Error(`${indexName} is not a split search index`);
    const missingParts = {files: new Set<string>(), reads: 0};
    // Every part is read as the box fetches it: relative to the index file.
    const index = new ShardedIndex(manifest, async (file) => {
      try {
        return JSON.parse(readFileSync(path.join(buildDir, file), 'utf8'));
      } catch (error) {
        missingParts.files.add(file);
        missingParts.reads++;
        throw error;
      }
    });
    const document = parseYaml(read('openapi.yaml')) as OpenApiDocument;
    const pages = new Map<string, ParsedPage>();
    for (const route of this.routes(read('sitemap.xml'))) {
      const markdown = read(twinPath(route).slice(1));
      const htmlCandidates =
        route === '/' ? ['index.html'] : [`${route.slice(1)}.html`, `${route.slice(1)}/index.html`];
      const html = htmlCandidates.find((file) => existsSync(path.join(buildDir, file)));
      for (const candidate of htmlCandidates)
        if (candidate !== html) stamps.set(candidate, statOf(buildDir, candidate));
      pages.set(route, parsePage(markdown, html ? read(html) : ''));
    }
    return {stamps, index, pages, document, missingParts};
  }

  /**
   * The build as it is now: a deploy replaces build/ (or some of its files) under a running server, and the old
   * index's parts may be gone with it. One directory listing and a stat of each file read tell.
   */
  private get current(): Loaded {
    const {buildDir, loaded} = this;
    const changed =
      !loaded.stamps.has(indexFile(buildDir)) ||
      [...loaded.stamps].some(([file, stamp]) => statOf(buildDir, file) !== stamp);
    if (changed) this.loaded = this.load();
    return this.loaded;
  }

  private get pages(): Map<string, ParsedPage> {
    return this.current.pages;
  }

  get document(): OpenApiDocument {
    return this.current.document;
  }

  /** Every doc route, from the sitemap. */
  routes(sitemap = readFileSync(path.join(this.buildDir, 'sitemap.xml'), 'utf8')): string[] {
    return [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  }

  /**
   * The search box's results for `input` (the same bound, words, index code and order), one per URL:
   * page title, section heading, URL with its anchor and the section's opening prose.
   */
  async search(input: string, limit: number = searchResultLimits, signal?: AbortSignal): Promise<SearchHit[]> {
    signal?.throwIfAborted();
    const {query} = boundQuery(input);
    const loaded = this.current;
    const missingBefore = loaded.missingParts.reads;
    // Between its steps the search lets this process read other requests (a closed socket among them) and stops
    // once its caller has gone.
    const checkpoint = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    };
    const results = await loaded.index
      .find(tokenize(query), Math.max(limit * 3, searchResultLimits), checkpoint)
      .catch((error: unknown) => {
        if (loaded.missingParts.reads === missingBefore) throw error;
        return [];
      });
    // The index leaves out documents it could not read: an answer from part of it would look like "nothing
    // matches". If the build changed under the server mid-search, search the new one; otherwise say so.
    if (loaded.missingParts.reads !== missingBefore) {
      if (this.current !== loaded) return this.search(input, limit, signal);
      throw new Error(
        `The search index in ${this.buildDir} is incomplete (missing ${[...loaded.missingParts.files].join(', ')}): redeploy the whole build.`,
      );
    }
    signal?.throwIfAborted();
    const hits = new Map<string, SearchHit>();
    for (const {document, type, page} of results) {
      const url = new URL(`${document.u}${document.h ?? ''}`, SITE.url).href;
      if (hits.has(url)) continue;
      const found = this.locate(loaded.pages, url);
      const pageTitle = found?.page.title ?? (type === 0 ? document.t : page ? page.t : (document.s ?? document.t));
      const section = found?.section.anchor ? found.section.heading : null;
      hits.set(url, {
        title: pageTitle,
        section,
        url,
        text: found ? openingText(found.page, found.section, OPENING_LENGTH) : document.t.slice(0, OPENING_LENGTH),
      });
      if (hits.size === limit) break;
    }
    return [...hits.values()];
  }

  /** The route of a URL or path of this site; undefined for another host. */
  private route(url: string): {route: string; anchor: string | null} | undefined {
    const site = new URL(SITE.url);
    let parsed: URL;
    try {
      parsed = new URL(withScheme(url), SITE.url);
    } catch {
      return undefined;
    }
    if (parsed.host !== site.host) return undefined;
    const route =
      parsed.pathname
        .replace(/\.md$/, '')
        .replace(/\/index$/, '/')
        .replace(/(.)\/$/, '$1') || '/';
    return {route, anchor: parsed.hash ? decodedAnchor(parsed.hash.slice(1)) : null};
  }

  private locate(pages: Map<string, ParsedPage>, url: string): {page: ParsedPage; section: Section} | undefined {
    const target = this.route(url);
    const page = target && pages.get(target.route);
    if (!target || !page) return undefined;
    return {page, section: (target.anchor && page.byAnchor.get(target.anchor)) || page.root};
  }

  /**
   * The pages nearest to a URL of this site that names none (by edit distance of the path), each with the URL's
   * #anchor when that page has the section.
   */
  nearestPages(url: string, count = 3): string[] {
    const target = this.route(url);
    if (!target) return [];
    const {pages} = this;
    return [...pages.keys()]
      .map((route) => ({route, score: distance(route, target.route)}))
      .sort((a, b) => a.score - b.score)
      .slice(0, count)
      .map(({route}) => {
        const anchor = target.anchor && pages.get(route)!.byAnchor.has(target.anchor) ? `#${target.anchor}` : '';
        return new URL(`${route}${anchor}`, SITE.url).href;
      });
  }

  /** Whether a URL names another host than this site's (or a host no URL can have). */
  isForeign(url: string): boolean {
    try {
      return new URL(withScheme(url), SITE.url).host !== new URL(SITE.url).host;
    } catch {
      return /^[a-z][\w+.-]*:/i.test(url) || withScheme(url) !== url;
    }
  }

  /**
   * A page, or one section of it with its sub-sections (`#anchor`), as Markdown; `maxTokens` trims
   * it by whole sub-sections and names the rest, `languages` keeps only those code tabs. Undefined
   * when the site has no such page; `{anchors}` when the page has no such section.
   */
  page(url: string, options: PageOptions = {}): PageAnswer | {missingAnchor: string; anchors: string[]} | undefined {
    const target = this.route(url);
    const page = target && this.pages.get(target.route);
    if (!target || !page) return undefined;
    const pageUrl = new URL(target.route, SITE.url).href;
    const section = target.anchor ? page.byAnchor.get(target.anchor) : page.root;
    if (!section) {
      const wanted = target.anchor!.toLowerCase();
      const anchors = [...page.byAnchor.keys()]
        .map((anchor) => ({anchor, score: nearness(wanted, anchor)}))
        .sort((a, b) => a.score - b.score)
        .map(({anchor}) => `${pageUrl}#${anchor}`);
      return {missingAnchor: target.anchor!, anchors};
    }
    const urlOf = (node: Section) => (node.anchor ? `${pageUrl}#${node.anchor}` : pageUrl);
    const whole = section === page.root;
    // A whole page, asked for without max_tokens, is cut to a default budget: most pages are far larger than the
    // section a question needs, and an assistant that opens a search hit without an anchor should not pay for it all.
    const maxTokens = options.maxTokens ?? (whole ? DEFAULT_PAGE_TOKENS : undefined);
    const fullText = page.lines.join('\n');
    if (
      whole &&
      !options.languages?.length &&
      (maxTokens === undefined || fullText.length <= maxTokens * CHARS_PER_TOKEN)
    )
      return {url: pageUrl, title: page.title, section: null, markdown: fullText, leftOut: []};
    const budget = maxTokens === undefined ? Infinity : maxTokens * CHARS_PER_TOKEN;
    const header = whole ? '' : `From "${page.title}", ${urlOf(section)}\n\n`;
    const why = `max_tokens=${maxTokens}${options.maxTokens === undefined ? ', the default for a whole page' : ''}`;
    /** What was left out: each section by its URL. */
    const entriesOf = (rendered: Rendered) =>
      rendered.leftOut
        .flatMap((child) => [child, ...outline(child)])
        .map((node) => ({heading: node.heading, url: urlOf(node), depth: node.depth}));
    /** The note after the answer, all of it within `room` characters when it can be: sections that do not fit are counted. */
    const noteOf = (rendered: Rendered, room: number) => {
      const lines: string[] = [];
      // Said briefly while the rest is listed; in full at the end when that still fits.
      const unmatched = rendered.unmatchedTabs.length
        ? `No code tab here is in ${options.languages!.join(', ')}; shown: ${rendered.unmatchedTabs.join(', ')}.`
        : undefined;
      if (unmatched) lines.push('No code tab here is in the languages asked for.');
      const entries = entriesOf(rendered);
      if (entries.length) lines.push(`Left out (${why}${rendered.cut ? '; own text cut' : ''}); ask get_page for:`);
      else if (rendered.cut) lines.push(`Cut to ${why}.`);
      const size = () => (lines.length ? `\n\n---\n${lines.join('\n')}`.length : 0);
      const more = (count: number) => `- ${count} more: raise max_tokens`;
      let listed = 0;
      for (const [index, entry] of entries.entries()) {
        const line = `${'  '.repeat(Math.max(entry.depth - section.depth - 1, 0))}- ${entry.heading}: ${entry.url}`;
        const rest = entries.length - index - 1;
        if (size() + 1 + line.length + (rest ? 1 + more(rest).length : 0) > room) break;
        lines.push(line);
        listed += 1;
      }
      if (listed < entries.length) lines.push(more(entries.length - listed));
      if (unmatched && size() - lines[0]!.length + unmatched.length <= room) lines[0] = unmatched;
      return {text: lines.length ? `\n\n---\n${lines.join('\n')}` : '', entries};
    };

    // Room for the list of what is left out, before the text: the whole list for a whole page asked without
    // max_tokens (its opening, then the URL of every section), else up to a third of the budget.
    const outlineSize = noteOf(renderSection(page, section, options.languages, 0), Infinity).text.length;
    const ownText = page.lines
      .slice(section.start, section.children[0]?.start ?? section.end)
      .join('\n')
      .trim().length;
    // A whole page that fits once its languages are kept is sent whole.
    const fitsWhole = () => {
      const kept = renderSection(page, section, options.languages);
      return kept.markdown.length + noteOf(kept, Infinity).text.length <= budget;
    };
    let contentBudget =
      whole && options.maxTokens === undefined
        ? fitsWhole()
          ? budget
          : Math.min(ownText, budget - outlineSize)
        : budget - header.length - Math.min(outlineSize, budget / 3);
    let rendered: Rendered;
    let note: ReturnType<typeof noteOf>;
    // The note counts towards the budget: what overflows comes off the text, until all of it fits.
    for (let attempt = 0; ; attempt += 1) {
      rendered = renderSection(page, section, options.languages, Math.max(contentBudget, 0));
      note = noteOf(rendered, budget - header.length - rendered.markdown.length);
      const over = header.length + rendered.markdown.length + note.text.length - budget;
      if (over <= 0 || contentBudget <= 0) break;
      // Each pass takes off at least what overflowed; a few passes settle it, and nothing left of the text ends it.
      contentBudget = attempt < 8 ? contentBudget - over : 0;
    }
    return {
      url: urlOf(section),
      title: page.title,
      section: whole ? null : section.heading,
      markdown: `${header}${rendered.markdown}${note.text}`,
      leftOut: note.entries.map(({heading, url}) => ({heading, url})),
    };
  }

  /** Every anchor of every page, for "did you mean" and the tests. */
  anchors(): string[] {
    return [...this.pages].flatMap(([route, page]) =>
      [...page.byAnchor.keys()].map((anchor) => `${new URL(route, SITE.url).href}#${anchor}`),
    );
  }

  /** Every operation, complete (computed once per build). */
  operations(): Operation[] {
    const loaded = this.current;
    return (loaded.operationList ??= listOperations(loaded.document).map(({method, path: apiPath, operation}) =>
      operationDetail(loaded.document, method, apiPath, operation, this.documentedAt(method, apiPath)),
    ));
  }

  /** One operation by a loose name (see findOperation), or the nearest names. */
  operation(id: string): {found: Operation} | {found?: undefined; suggestions: string[]} {
    const match = findOperation(this.document, id);
    if (!match.found) return match;
    const {method, path: apiPath, operation} = match.found;
    return {found: operationDetail(this.document, method, apiPath, operation, this.documentedAt(method, apiPath))};
  }

  schema(name: string): {found: SchemaDetail} | {suggestions: string[]} {
    return findSchema(this.document, name);
  }

  /**
   * The sections (innermost heading with an anchor) whose text names `METHOD /path` exactly: not a
   * longer path that starts with it (`GET /v1/orders` is not `GET /v1/orders/{order_id}`).
   */
  private documentedAt(method: string, apiPath: string): {url: string; section: string}[] {
    const escaped = `${method} ${apiPath}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const mention = new RegExp(`(?<![\\w/])${escaped}(?![\\w/{-])`);
    const places = new Map<string, string>();
    for (const [route, page] of this.pages) {
      const visit = (section: Section, owner: Section) => {
        const anchored = section.anchor ? section : owner;
        const own = page.lines.slice(section.start, section.children[0]?.start ?? section.end).join('\n');
        if (mention.test(own) && anchored.anchor) {
          places.set(`${new URL(route, SITE.url).href}#${anchored.anchor}`, anchored.heading);
        }
        for (const child of section.children) visit(child, anchored);
      };
      visit(page.root, page.root);
    }
    return [...places].map(([url, section]) => ({url, section}));
  }
}
