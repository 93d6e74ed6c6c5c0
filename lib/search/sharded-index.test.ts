// The split index answers every query exactly as the plugin's own worker answers over the unsplit index, and a
// query loads only some of its parts. The plugin's theme/worker.js runs here as it is, on the unsplit index.
import {readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {isDeepStrictEqual} from 'node:util';
import {expect, test} from '@playwright/test';
import createJiti from 'jiti';

import {partOf, splitIndex, type IndexPart, type SearchDocument} from './index-parts';
import {newestSearchOnly} from './newest-search';
import type * as ShardedSearch from './sharded-index';
import {tokenize} from './tokenize';

const ROOT = path.resolve(__dirname, '../..');
const QUERY_SETS_DIR = path.join(ROOT, 'bench', 'query-sets');
const PLUGIN = path.dirname(require.resolve('@easyops-cn/docusaurus-search-local/package.json'));
const jiti = createJiti(__filename, {
  interopDefault: true,
  alias: {
    './proxiedGeneratedConstants': path.join(__dirname, 'generated-constants.ts'),
    '../utils/proxiedGeneratedConstants': path.join(__dirname, 'fixtures/worker-constants.ts'),
    '../utils/tokenize': path.join(__dirname, 'tokenize.ts'),
    comlink: path.join(__dirname, 'fixtures/comlink.ts'),
  },
});
const {ShardedIndex} = jiti(path.join(__dirname, 'sharded-index.ts')) as typeof ShardedSearch;
const {SearchWorker} = jiti(path.join(PLUGIN, 'dist/client/client/theme/worker.js')) as {
  SearchWorker: new () => {search(baseUrl: string, context: string, input: string, limit: number): Promise<unknown[]>};
};
const {buildIndex} = require(path.join(PLUGIN, 'dist/server/server/utils/buildIndex.js')) as {
  buildIndex: (documents: SearchDocument[][], options: object) => IndexPart[];
};
const INDEX_OPTIONS = {language: ['en'], removeDefaultStopWordFilter: [], removeDefaultStemmer: []};
/** The plugin's index of these documents, serialized as the plugin writes its file. */
const indexOf = (documents: SearchDocument[][]): IndexPart[] =>
  JSON.parse(JSON.stringify(buildIndex(documents, INDEX_OPTIONS)));

/** The index split into parts held in memory, the loader of a part by its name, and the split index. */
function inMemory(index: IndexPart[], news?: string[]) {
  const files: string[] = [];
  const manifest = splitIndex(index, (json) => `${files.push(json) - 1}`, news);
  const load = async (file: string): Promise<unknown> => JSON.parse(files[Number(file)]!);
  return {manifest, load, sharded: new ShardedIndex(manifest, load)};
}

// Lunr syntax and what tokenizes to nothing (the e2e tests run the full hostile list through the box).
const ODD_QUERIES = [
  ...['*', '~', 'web*', 'sdk~2', 'title:sdk'],
  ...['+refund -invoice', '"webhook signature"', '🚀', 'eSIM 🚀'],
];

/** The plugin's five document kinds (title, heading, description, keywords, content) from the pages' sources. */
function documentsOfThePages(): SearchDocument[][] {
  const kinds: SearchDocument[][] = [[], [], [], [], []];
  let id = 0;
  for (const category of readdirSync(path.join(ROOT, 'docs'))) {
    for (const file of readdirSync(path.join(ROOT, 'docs', category)).filter((name) => name.endsWith('.mdx'))) {
      const source = readFileSync(path.join(ROOT, 'docs', category, file), 'utf8');
      const url = `/${category}/${file.replace(/\.mdx$/, '')}`;
      const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(source)?.[1] ?? '';
      const page: SearchDocument = {i: ++id, t: field('title'), u: url};
      kinds[0]!.push(page);
      // As the plugin numbers them: a page's description and keywords share its title's id.
      kinds[2]!.push({i: page.i, t: field('description'), s: page.t, u: url, p: page.i});
      const keywords = (/^keywords:\n((?: {2}- .+\n)+)/m.exec(source)?.[1] ?? '').replace(/^ {2}- /gm, '');
      kinds[3]!.push({i: page.i, t: keywords.replace(/\n/g, ' ').trim(), s: page.t, u: url, p: page.i});
      for (const section of source.split(/^#{2,3} /m).slice(1)) {
        const [heading = '', ...body] = section.split('\n');
        const anchor = `#${heading.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
        const at = {u: url, h: anchor, p: page.i};
        kinds[1]!.push({i: ++id, t: heading, ...at});
        for (const paragraph of body.join('\n').split(/\n\s*\n/)) {
          if (paragraph.trim()) kinds[4]!.push({i: ++id, t: paragraph.trim(), s: heading, ...at});
        }
      }
    }
  }
  return kinds;
}

test.describe('the search index in parts', {tag: '@viewport-independent'}, () => {
  // Built in the worker only, not when the tests are listed.
  let unsplit: IndexPart[];
  let manifest: ReturnType<typeof splitIndex>;
  let load: (file: string) => Promise<unknown>;
  let sharded: ShardedSearch.ShardedIndex;
  test.beforeAll(() => {
    unsplit = indexOf(documentsOfThePages());
    ({manifest, load, sharded} = inMemory(unsplit));
  });
  const search = (query: string) => sharded.search(tokenize(query), 8);
  const find = (query: string) => sharded.find(tokenize(query), 8);

  test('answers every query of every set, its prefixes and odd ones as the unsplit index does', async () => {
    (globalThis as {location?: object}).location = {origin: 'http://docs.test'};
    globalThis.fetch = (async () => ({json: async () => unsplit})) as unknown as typeof fetch;
    const reference = new SearchWorker();
    // Both searches see a query only as its words (the worker runs our tokenize): one search per distinct list.
    const queries = new Map<string, string>();
    const add = (query: string) => queries.set(JSON.stringify(tokenize(query)), query);
    ODD_QUERIES.forEach(add);
    // The sets the suite gates (QUERY_SETS in tests/support/search.ts); the later blind sets are the bench's.
    for (const file of readdirSync(QUERY_SETS_DIR).filter((name) => /^(own|blind-[1-3])\.json$/.test(name))) {
      const set = JSON.parse(readFileSync(path.join(QUERY_SETS_DIR, file), 'utf8')).queries as {query: string}[];
      for (const {query} of set) {
        // As typed, every prefix is searched on the way. A partial last word is a prefix lookup across parts,
        // whatever comes before it: each word is typed out alone, and the query is cut after each whole word.
        for (let end = 1; end <= query.length; end++) {
          if (end === query.length || /\s/.test(query[end]!)) add(query.slice(0, end));
        }
        for (const word of query.split(/\s+/)) {
          for (let end = 1; end <= word.length; end++) add(word.slice(0, end));
        }
      }
    }
    let nonEmpty = 0;
    // Compared without an expect() per query (each is a costly step of its own); the differing ones are shown.
    const differing: {query: string; expected: unknown[]; actual: unknown[]}[] = [];
    for (const query of queries.values()) {
      const expected = await reference.search('/', '', query, 8);
      const actual = await search(query);
      if (!isDeepStrictEqual(actual, expected)) differing.push({query, expected, actual});
      if (expected.length > 0) nonEmpty++;
    }
    expect(differing).toEqual([]);
    expect(nonEmpty).toBeGreaterThan(queries.size / 2);
    expect(manifest.split.at(-1)!.termParts.length).toBeGreaterThan(4);
  });

  test('a query loads only the parts holding its terms and the documents it shows', async () => {
    const fetched: string[] = [];
    const counted = new ShardedIndex(manifest, async (file) => (fetched.push(file), load(file)));
    expect((await counted.search(tokenize('webhook signature'), 8)).length).toBeGreaterThan(0);
    const all = manifest.split.reduce((sum, split) => sum + split.termParts.length + split.documentParts.length, 0);
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.length).toBeLessThan(all / 2);
    // Searched again: nothing more to load.
    const before = fetched.length;
    await counted.search(tokenize('webhook signature'), 8);
    expect(fetched).toHaveLength(before);
  });

  test('a search the reader typed past loads no more parts and answers with the newest search’s results', async () => {
    // A key a search, each started before the ones before it end, as fast typing on a slow link does.
    const typed = ['w', 'we', 'web', 'webh', 'webho', 'webhook', 'webhook s', 'webhook sig'];
    const typedOver = async (newestOnly?: ReturnType<typeof newestSearchOnly<ShardedSearch.SearchResult[]>>) => {
      const fetched = new Set<string>();
      const index = new ShardedIndex(manifest, async (file) => (fetched.add(file), load(file)));
      const answers = await Promise.all(
        typed.map((query) =>
          newestOnly
            ? newestOnly((checkpoint) => index.find(tokenize(query), 8, checkpoint))
            : index.find(tokenize(query), 8),
        ),
      );
      return {answers, fetched: fetched.size};
    };
    const everyKey = await typedOver();
    const newest = await typedOver(newestSearchOnly());
    expect(everyKey.answers.at(-1)!.length).toBeGreaterThan(0);
    for (const answer of newest.answers) expect(answer).toEqual(everyKey.answers.at(-1));
    expect(newest.fetched).toBeLessThan(everyKey.fetched);
    // A failure of the newest search reaches its caller.
    const failing = newestSearchOnly<string>();
    await expect(failing(() => Promise.reject(new Error('part failed')))).rejects.toThrow('part failed');
  });

  test('while the parts cannot load, a search shows the titles it finds; the next search loads them', async () => {
    let offline = true;
    const flaky = new ShardedIndex(manifest, (file) => (offline ? Promise.reject(new Error('offline')) : load(file)));
    const titlesOnly = await flaky.search(tokenize('billing'), 8);
    expect(titlesOnly.length).toBeGreaterThan(0);
    expect(titlesOnly.every((result) => result.type === 0)).toBe(true);
    offline = false;
    const whole = await flaky.search(tokenize('billing'), 8);
    expect(whole.some((result) => result.type === manifest.split.length)).toBe(true);
  });

  test('what the box shows holds no document twice, and at least as many pages as the plugin’s own results', async () => {
    const pages = (results: ShardedSearch.SearchResult[]) => new Set(results.map(({document}) => document.u)).size;
    for (const query of ['webhook signature', 'billing', 'sdk retries', 'idempotency key', 'webhook']) {
      const shown = await find(query);
      expect(new Set(shown.map(({type, document}) => `${type}:${document.i}`)).size, query).toBe(shown.length);
      expect(shown.length, query).toBeLessThanOrEqual(8);
      // Two hits of a page at most among the whole matches: more pages in the list.
      expect(pages(shown), query).toBeGreaterThanOrEqual(pages(await search(query)));
    }
  });

  test('every document’s page is known before the document loads', () => {
    const documents = unsplit.flatMap(({documents}) => documents);
    const pageOf = (id: number) => manifest.pages![partOf(manifest.pages!, id)]!.page;
    expect(documents.filter((document) => pageOf(document.i) !== (document.p ?? document.i))).toEqual([]);
  });

  test('when no document holds every word, the order of the words does not change the first results', async () => {
    const top = async (query: string) =>
      (await find(query)).slice(0, 3).map(({document}) => `${document.u}${document.h ?? ''}`);
    // The plugin drops the last word first; the box searches the words less one, each in turn, together.
    expect(await search('token automatically postman')).not.toEqual([]);
    expect(await top('token automatically postman')).toEqual(await top('postman automatically token'));
  });

  test('when no document holds every word, the ones holding more of them come first; a query of nothing the docs hold finds nothing', async () => {
    // No page says "xylophone": the plugin finds nothing, the box still shows the refund pages.
    expect(await search('refund xylophone')).toEqual([]);
    const shown = await find('refund xylophone');
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((result) => /refund/i.test(JSON.stringify(result.metadata)))).toBe(true);
    // Two words of four beat one: the plugin itself drops at most one.
    expect(await search('refund webhook xylophone zither')).toEqual([]);
    const ranked = await find('refund webhook xylophone zither');
    expect(ranked.length).toBeGreaterThan(1);
    const terms = Object.keys(ranked[0]!.metadata);
    const words = ['refund', 'webhook'].filter((word) => terms.some((term) => term.startsWith(word)));
    expect(words).toEqual(['refund', 'webhook']);
    expect(await find('xylophone zither')).toEqual([]);
    expect(await find('what is the')).toEqual([]);
  });

  test('when no document holds every word, one holding a rare word comes before those holding common ones', async () => {
    // Six sections hold the question's two common words, one its rare word: the one the question is about.
    const page = {i: 1, t: 'Guide', u: '/guide'};
    const section = (i: number, t: string) => ({i, t, s: `Section ${i}`, u: '/guide', h: `#s${i}`, p: 1});
    const sections = [
      ...[2, 3, 4, 5, 6, 7].map((i) => section(i, 'Send the order with a token.')),
      section(8, 'A webhook.'),
    ];
    const split = inMemory(indexOf([[page], [], [], [], sections]));
    const results = await split.sharded.find(tokenize('order token webhook zither'), 8);
    expect(results.map(({document}) => document.h)).toEqual(['#s8', '#s2', '#s3', '#s4', '#s5', '#s6', '#s7']);
  });

  test('a news page’s section comes after another page’s with the same match, before it when the query asks when something changed, and still shows when alone', async () => {
    // A changelog entry is short, so it outscores the guide on the same words; marked as news, it comes after.
    const page = (i: number, u: string, t: string) => ({i, t, u});
    const section = (i: number, p: number, u: string, t: string) => ({i, t, s: 'Section', u, h: '#s', p});
    const sections = [
      section(2, 1, '/changelog', '2025-04-14: the webhook signature header. Also: refunds.'),
      section(4, 3, '/guide', 'Since 2025, check the webhook signature added to every delivery, then answer 200.'),
    ];
    const index = indexOf([[page(1, '/changelog', 'Changelog'), page(3, '/guide', 'Guide')], [], [], [], sections]);
    const shown = async (news: string[], query: string) => {
      const split = inMemory(index, news);
      expect(split.manifest.news).toEqual(news.length ? [1] : []);
      const results = await split.sharded.find(tokenize(query), 8);
      return results.map(({document}) => document.u);
    };
    const changelogFirst = ['/changelog', '/guide'];
    const guideFirst = ['/guide', '/changelog'];
    expect(await shown([], 'webhook signature')).toEqual(changelogFirst);
    expect(await shown(['/changelog'], 'webhook signature')).toEqual(guideFirst);
    expect(await shown(['/changelog'], 'refunds')).toEqual(['/changelog']);
    // Asked when it came, the news page answers first, found without the word of change it files under a heading;
    // the same word in another kind of question does not bring it up.
    expect(await shown(['/changelog'], 'when was the webhook signature added')).toEqual(changelogFirst);
    expect(await shown(['/changelog'], 'webhook signature 2025')).toEqual(changelogFirst);
    expect(await shown(['/changelog'], 'what happens once the webhook signature is added')).toEqual(guideFirst);
  });
});
