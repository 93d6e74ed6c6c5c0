/**
 * What the MCP server knows, read only from a production build (the files the site serves): the
 * search index, the Markdown twins and /openapi.yaml. Search runs the search plugin's own query code
 * (its smart queries, fuzzy matching and sorting) with this site's tokenizer, as the search box does.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

import createJiti from 'jiti';
import {parse as parseYaml} from 'yaml';

import {listOperations, operationScopes, type OpenApiDocument} from '../lib/contract/openapi';
import {boundQuery} from '../lib/search-query';
import {twinPath} from '../lib/twin-path';
import {isManifest, MANIFEST_FILE} from '../plugins/search/index-parts';
import type * as ShardedSearch from '../plugins/search/sharded-index';
import {tokenize} from '../plugins/search/tokenize';
import {SITE} from '../src/constants/site';
import {searchResultLimits} from './search-constants';

// The box's search code (plugins/search/sharded-index.ts) imports the plugin's browser ESM, which imports generated
// constants: loaded with those aliased to the site's options.
const jiti = createJiti(__filename, {
  interopDefault: true,
  alias: {'./proxiedGeneratedConstants': path.join(__dirname, 'search-constants.ts')},
});
const {ShardedIndex} = jiti(path.join(__dirname, '../plugins/search/sharded-index.ts')) as typeof ShardedSearch;

export type SearchHit = {title: string; url: string; section: string | null; snippet: string};
export type Page = {url: string; markdown: string};
export type Operation = {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  scopes: string[];
  documentedAt: {page: string; section: string | null}[];
  requestBody: unknown;
  responses: unknown;
};

const SNIPPET_LENGTH = 200;

export class BuiltDocs {
  private readonly index: ShardedSearch.ShardedIndex;
  private readonly twins = new Map<string, string>();
  readonly document: OpenApiDocument;

  constructor(readonly buildDir: string) {
    const indexFile = readdirSync(buildDir).find((name) => MANIFEST_FILE.test(name));
    if (!indexFile) throw new Error(`${buildDir} holds no search index: run \`npm run build\` first`);
    const manifest: unknown = JSON.parse(readFileSync(path.join(buildDir, indexFile), 'utf8'));
    if (!isManifest(manifest)) throw new Error(`${indexFile} is not a split search index`);
    // Every part is read as the box fetches it: relative to the index file.
    this.index = new ShardedIndex(manifest, async (file) =>
      JSON.parse(readFileSync(path.join(buildDir, file), 'utf8')),
    );
    this.document = parseYaml(readFileSync(path.join(buildDir, 'openapi.yaml'), 'utf8')) as OpenApiDocument;
    for (const route of this.routes()) {
      this.twins.set(route, readFileSync(path.join(buildDir, twinPath(route).slice(1)), 'utf8'));
    }
  }

  /** Every doc route, from the sitemap. */
  routes(): string[] {
    const sitemap = readFileSync(path.join(this.buildDir, 'sitemap.xml'), 'utf8');
    return [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  }

  /** The search box's results for `input`: the same bound, words and index code as the box. */
  async search(input: string, limit: number = searchResultLimits): Promise<SearchHit[]> {
    const {query} = boundQuery(input);
    const results = await this.index.search(tokenize(query), limit);
    return results.map(({document, type, page}) => {
      const pageTitle = type === 0 ? document.t : page ? page.t : (document.s ?? document.t);
      const section = type === 1 ? document.t : document.s && document.s !== pageTitle ? document.s : null;
      return {
        title: pageTitle,
        url: new URL(`${document.u}${document.h ?? ''}`, SITE.url).href,
        section,
        snippet: type >= 2 ? document.t.slice(0, SNIPPET_LENGTH) : (section ?? (page ? page.t : document.t)),
      };
    });
  }

  /** A page's Markdown twin by canonical URL, path or twin path; undefined when the site has no such page. */
  page(url: string): Page | undefined {
    let pathname: string;
    try {
      pathname = new URL(url, SITE.url).pathname;
    } catch {
      return undefined;
    }
    const route =
      pathname
        .replace(/\.md$/, '')
        .replace(/\/index$/, '/')
        .replace(/(.)\/$/, '$1') || '/';
    const markdown = this.twins.get(route);
    return markdown === undefined ? undefined : {url: new URL(route, SITE.url).href, markdown};
  }

  operations(): Operation[] {
    return listOperations(this.document).map(({method, path: apiPath, operation}) => ({
      operationId: operation.operationId,
      method,
      path: apiPath,
      summary: operation.summary ?? '',
      scopes: operationScopes(this.document, operation),
      documentedAt: this.documentedAt(method, apiPath),
      requestBody: operation.requestBody ?? null,
      responses: operation.responses,
    }));
  }

  /** `operationId` or `METHOD /path`. */
  operation(id: string): Operation | undefined {
    const wanted = id.trim();
    return this.operations().find(
      (operation) =>
        operation.operationId === wanted ||
        `${operation.method} ${operation.path}`.toLowerCase() === wanted.toLowerCase(),
    );
  }

  /** The pages (and the section within each) whose Markdown names `METHOD /path`. */
  private documentedAt(method: string, apiPath: string): {page: string; section: string | null}[] {
    const mention = `${method} ${apiPath}`;
    const places: {page: string; section: string | null}[] = [];
    for (const [route, markdown] of this.twins) {
      let section: string | null = null;
      for (const line of markdown.split('\n')) {
        const heading = /^#{2,3} (.+)$/.exec(line);
        if (heading) section = heading[1]!;
        if (line.includes(mention)) {
          places.push({page: new URL(route, SITE.url).href, section});
          break;
        }
      }
    }
    return places;
  }
}
