/**
 * What the MCP server knows, read only from a production build (the files the site serves): the
 * search index, the Markdown twins and /openapi.yaml. Search runs the search plugin's own query code
 * (its smart queries, fuzzy matching and sorting) with this site's tokenizer, as the search box does.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

import createJiti from 'jiti';
import {parse as parseYaml} from 'yaml';

import {listOperations, operationScopes, type OpenApiDocument} from '../lib/contract/openapi';
import {boundQuery} from '../lib/search-query';
import {twinPath} from '../lib/twin-path';
import {tokenize} from '../plugins/search/tokenize';
import {SITE} from '../src/constants/site';
import {searchResultLimits} from './search-constants';

const SEARCH_PLUGIN = path.dirname(require.resolve('@easyops-cn/docusaurus-search-local/package.json'));
const CLIENT_UTILS = path.join(SEARCH_PLUGIN, 'dist/client/client/utils');
const lunrFile = createRequire(path.join(SEARCH_PLUGIN, 'package.json')).resolve('lunr');
// The plugin's query code is browser ESM that imports generated constants: load it with those aliased.
const jiti = createJiti(__filename, {
  interopDefault: true,
  alias: {'./proxiedGeneratedConstants': path.join(__dirname, 'search-constants.ts'), lunr: lunrFile},
});

type Lunr = {Index: {load(index: unknown): LunrIndex}};
type LunrIndex = {query(build: (query: {term(value: string, options: object): void}) => void): LunrResult[]};
type LunrResult = {ref: string; score: number; matchData: {metadata: object}};
type SearchDocument = {i: number; t: string; u: string; h?: string; p?: number; s?: string; b?: string[]};
type SmartQuery = {
  tokens: string[];
  term: {value: string; wildcard: number; presence: number; editDistance?: number}[];
};
type Result = {document: SearchDocument; type: number; page: SearchDocument | false | undefined; score: number};

const lunr = require(lunrFile) as Lunr;
const {smartQueries} = jiti(path.join(CLIENT_UTILS, 'smartQueries.js')) as {
  smartQueries: (tokens: string[], zh: string[]) => SmartQuery[];
};
const {sortSearchResults} = jiti(path.join(CLIENT_UTILS, 'sortSearchResults.js')) as {
  sortSearchResults: (results: Result[]) => void;
};

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
  private readonly indexes: {type: number; documents: SearchDocument[]; index: LunrIndex}[];
  private readonly twins = new Map<string, string>();
  readonly document: OpenApiDocument;

  constructor(readonly buildDir: string) {
    const indexFile = readdirSync(buildDir).find((name) => /^search-index.*\.json$/.test(name));
    if (!indexFile) throw new Error(`${buildDir} holds no search index: run \`npm run build\` first`);
    const parts = JSON.parse(readFileSync(path.join(buildDir, indexFile), 'utf8')) as {
      documents: SearchDocument[];
      index: unknown;
    }[];
    this.indexes = parts.map(({documents, index}, type) => ({type, documents, index: lunr.Index.load(index)}));
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

  /** The search box's results for `input`: the worker's loop (search-local 0.54.1, theme/worker.js) over the same index. */
  search(input: string, limit: number = searchResultLimits): SearchHit[] {
    const {query} = boundQuery(input);
    const tokens = tokenize(query);
    if (tokens.length === 0) return [];
    const results: Result[] = [];
    search: for (const {term} of smartQueries(tokens, [])) {
      for (const {documents, index, type} of this.indexes) {
        const found = index
          .query((builder) => {
            for (const item of term) {
              builder.term(item.value, {
                wildcard: item.wildcard,
                presence: item.presence,
                ...(item.editDistance ? {editDistance: item.editDistance} : null),
              });
            }
          })
          .slice(0, limit)
          .filter((result) => !results.some((item) => item.document.i.toString() === result.ref))
          .slice(0, limit - results.length)
          .map((result) => {
            const document = documents.find((doc) => doc.i.toString() === result.ref)!;
            const page = type !== 0 && this.indexes[0]!.documents.find((doc) => doc.i === document.p);
            return {document, type, page, score: result.score};
          });
        results.push(...found);
        if (results.length >= limit) break search;
      }
    }
    sortSearchResults(results);
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
