/**
 * `npm run bench:search-scale [-- --sizes 0,100,300] [--queries 5] [--ref <git ref>] [--keep]`: how the search
 * box scales with the number of pages. Not a test: it prints figures and how they were measured.
 *
 * The sources are copied once, at the start (the working tree without node_modules, build, .docusaurus*,
 * test-results, playwright-report and .git; or, with --ref, the tree of that commit), so every size is built
 * from the same files while the repository may change. For each N of --sizes: a temporary copy of them
 * (node_modules linked), N generated pages added (bench/search-scale-pages.ts: realistic,
 * deterministic, in three new categories), `npm run build` run there (docusaurus build, then precompress).
 * Measured:
 * 1. build: wall time (spawn to exit, precompress included) and peak memory (the highest sum of VmRSS
 *    over the build's process tree, sampled every 100 ms from /proc);
 * 2. index bytes: every build file with a part of its path below build/ that starts with `search-index`
 *    (`search-index-<hash>.json`, the parts under `assets/search-index/`: the same rule as the browser's
 *    index requests below), raw, gzip and brotli: the .gz and .br twins precompress wrote, or Node's
 *    zlib (gzip level 9, brotli quality 11) for a file without one;
 * 3. first-search bytes: the copy's build served by the copy's bench/serve-build.ts (nginx with
 *    deploy/, gzip and brotli), `/` opened in a fresh Chromium context (cold cache) on the phone profile
 *    below, the box waited for (waitForSearchReady), a first query typed key by key (KEY_DELAY_MS a key, each
 *    key searched as it comes); the encoded (on-the-wire) body bytes of every response whose URL path contains
 *    `search-index` that finished between navigation and the results of the last key (Playwright's
 *    request.sizes(), which also sees the
 *    search worker's requests), as bytes and as a share of the whole index in the encoding the server
 *    sent. One cold context per query (--queries, spread over the blind query sets);
 * 4. focus → results on the phone profile: Lighthouse's mobile figures set over CDP
 *    (Network.emulateNetworkConditions: 150 ms latency, 1.6 Mbps down, 750 Kbps up; applies to the
 *    worker's fetches too; Emulation.setCPUThrottlingRate 4) on a 412 × 823 touch viewport. Cold
 *    context; `/` loaded; the reader taps the box as soon as it is visible (disabled or not: it
 *    remembers the focus), types the query key by key as soon as the box holds the focus and is ready,
 *    and the time runs from the tap (its pointerdown) to the results of the last key (the first change of the
 *    list after it: tests/support/search.ts's probe); typed → results runs from that last key. Also
 *    load → search-ready (navigation start to the box enabled as a combobox) on that profile;
 * 5. relevance: every set of QUERY_SETS through the real box in a desktop context, unthrottled, as
 *    `npm run bench:search` does (hit@1, hit@3, MRR over the shown list), plus queries with no results.
 * The page-side helpers (tests/support/search.ts, serve-build.ts, nginx.ts) are loaded from each copy, so
 * they read that copy's build and match its search box. Timings are noisy: the machine has 2 shared cores.
 */
import {spawn, spawnSync} from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  type Dirent,
} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {brotliCompressSync, constants as zlibConstants, gzipSync} from 'node:zlib';
import {chromium, type Browser, type BrowserContext, type Page, type Request} from '@playwright/test';
import type * as SearchSupport from '../tests/support/search';
import type * as ServeBuild from './serve-build';
import {argValue, median, TSX_NAMES_IN_PAGE} from './cli';
import {writeGeneratedPages, type GeneratedSet} from './search-scale-pages';
import {treeRss} from '../tests/support/process-tree';

const ROOT = path.resolve(__dirname, '..');
/** Top-level entries not copied (installed, built or written by test runs). */
const NOT_COPIED = new Set(['.git', 'node_modules', 'build', 'test-results', 'playwright-report', 'blob-report']);
const RSS_SAMPLE_MS = 100;
const DEFAULT_SIZES = [0, 100, 300];
const DEFAULT_QUERIES = 5;
/** A reader's pace: each key a search of its own, as the box searches every edit. */
const KEY_DELAY_MS = 150;
/** How long a throttled phone may take to load a large index, and to answer its first query. */
const PHONE_TIMEOUT_MS = 300_000;

/** Lighthouse 12's mobile profile: moto g power (2022) screen, slow 4G, CPU 4× slower. */
const PHONE = {
  viewport: {width: 412, height: 823},
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36',
};
const NETWORK = {offline: false, latency: 150, downloadThroughput: 1_638_400 / 8, uploadThroughput: (750 * 1024) / 8};
const CPU_SLOWDOWN = 4;

/** The box and its result rows, as tests/support/search.ts finds them. */
const INPUT_SELECTOR = 'input.navbar__search-input';

type Options = {sizes: number[]; queries: number; ref: string | undefined; keep: boolean};

type BuildResult = {wallMs: number; peakRssBytes: number};
type IndexBytes = {files: number; raw: number; gzip: number; br: number};
type FirstSearch = {query: string; bytes: number | null; encoding: string; inFlight: number; readyMs: number};
type FocusRun = {
  query: string;
  focusToResultsMs: number | null;
  /** From typing into the ready, focused box to the first row: what the first search itself costs. */
  typedToResultsMs: number | null;
  waitedForReadyMs: number;
  retapped: boolean;
};
type SetScore = {name: string; queries: number; hitAt1: number; hitAt3: number; mrr: number; empty: number};
type Row = {
  size: number;
  generated: GeneratedSet;
  sitemapPages: number;
  build: BuildResult;
  index: IndexBytes;
  served: string;
  firstSearches: FirstSearch[];
  focusRuns: FocusRun[];
  relevance: SetScore[];
};

/* ------------------------------------------------------------------------------------------------ */
/* Options                                                                                           */
/* ------------------------------------------------------------------------------------------------ */

function parseOptions(): Options {
  const sizes = (argValue('--sizes') ?? DEFAULT_SIZES.join(','))
    .split(',')
    .filter(Boolean)
    .map((value) => Number(value));
  if (sizes.length === 0 || sizes.some((size) => !Number.isInteger(size) || size < 0)) {
    throw new Error(`--sizes takes page counts such as 0,100,300, not ${argValue('--sizes')}`);
  }
  const queries = Number(argValue('--queries') ?? DEFAULT_QUERIES);
  if (!Number.isInteger(queries) || queries < 1) throw new Error('--queries takes a positive whole number');
  return {sizes, queries, ref: argValue('--ref'), keep: process.argv.includes('--keep')};
}

/* ------------------------------------------------------------------------------------------------ */
/* The copy and its build                                                                            */
/* ------------------------------------------------------------------------------------------------ */

/**
 * One snapshot of the sources for the whole run (the working tree, or `ref`'s tree), so every size is built
 * from the same files even while someone edits the repository. Returns its directory and what it is.
 */
function snapshotSources(ref: string | undefined): {dir: string; what: string} {
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-search-scale-sources-'));
  const git = (...args: string[]) => spawnSync('git', ['-C', ROOT, ...args], {encoding: 'utf8'}).stdout.trim();
  if (ref) {
    const archive = spawnSync('git', ['-C', ROOT, 'archive', '--format=tar', ref], {maxBuffer: 1 << 30});
    if (archive.status !== 0) throw new Error(`git archive ${ref} failed: ${archive.stderr.toString()}`);
    const untar = spawnSync('tar', ['-x', '-C', dir], {input: archive.stdout});
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr.toString()}`);
    return {dir, what: `the tree of ${ref} (${git('rev-parse', '--short', ref)})`};
  }
  cpSync(ROOT, dir, {
    recursive: true,
    filter: (source) => {
      const top = path.relative(ROOT, source).split(path.sep)[0] ?? '';
      return !NOT_COPIED.has(top) && !top.startsWith('.docusaurus');
    },
  });
  const changed = git('status', '--porcelain').split('\n').filter(Boolean).length;
  return {dir, what: `the working tree (${git('rev-parse', '--short', 'HEAD')} with ${changed} changed or new files)`};
}

/** A temporary copy of the snapshot for one size, node_modules linked. */
function makeCopy(sources: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-search-scale-'));
  cpSync(sources, dir, {recursive: true});
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** `npm run build` in the copy: wall time and peak RSS of its process tree. */
async function buildCopy(dir: string): Promise<BuildResult> {
  const started = performance.now();
  const child = spawn('npm', ['run', 'build'], {
    cwd: dir,
    env: {...process.env, FORCE_COLOR: '0'},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  let peakRssBytes = 0;
  const timer = setInterval(() => {
    if (child.pid) peakRssBytes = Math.max(peakRssBytes, treeRss(child.pid));
  }, RSS_SAMPLE_MS);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`npm run build failed in ${dir} (exit ${code}):\n${log.slice(-6000)}`);
  return {wallMs, peakRssBytes};
}

function walk(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry: Dirent) =>
    entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/**
 * An index file: a path below build/ with a part that starts with `search-index` (`search-index-<hash>.json`,
 * `search-index/…`, `assets/search-index/…`), as the browser's index requests are those whose URL path
 * contains it; not the .gz and .br twins.
 */
const isIndexFile = (buildDir: string) => (file: string) =>
  path
    .relative(buildDir, file)
    .split(path.sep)
    .some((part) => part.startsWith('search-index')) && !/\.(gz|br)$/.test(file);

/** Raw, gzip and brotli bytes of the search index, whatever files it is split into. */
function indexBytes(buildDir: string): IndexBytes {
  const files = walk(buildDir).filter(isIndexFile(buildDir));
  if (files.length === 0) throw new Error(`${buildDir} has no search-index file`);
  const twinOr = (file: string, ext: string, compress: (data: Buffer) => Buffer) =>
    existsSync(`${file}.${ext}`) ? statSync(`${file}.${ext}`).size : compress(readFileSync(file)).length;
  const sum = (size: (file: string) => number) => files.reduce((total, file) => total + size(file), 0);
  return {
    files: files.length,
    raw: sum((file) => statSync(file).size),
    gzip: sum((file) => twinOr(file, 'gz', (data) => gzipSync(data, {level: 9}))),
    br: sum((file) =>
      twinOr(file, 'br', (data) => brotliCompressSync(data, {params: {[zlibConstants.BROTLI_PARAM_QUALITY]: 11}})),
    ),
  };
}

/** The copy's own helpers: they resolve build/ (and deploy/) inside the copy. */
function copyModules(dir: string): {search: typeof SearchSupport; serveBuild: typeof ServeBuild; buildDir: string} {
  const search = require(path.join(dir, 'tests/support/search.ts')) as typeof SearchSupport;
  const serveBuild = require(path.join(dir, 'bench/serve-build.ts')) as typeof ServeBuild;
  const nginx = require(path.join(dir, 'tests/support/nginx.ts')) as {BUILD_DIR: string};
  return {search, serveBuild, buildDir: nginx.BUILD_DIR};
}

/* ------------------------------------------------------------------------------------------------ */
/* The phone profile and the in-page probe                                                          */
/* ------------------------------------------------------------------------------------------------ */

/** A fresh context (cold cache) on Lighthouse's mobile profile, throttled over CDP. */
async function phonePage(browser: Browser, baseURL: string): Promise<{context: BrowserContext; page: Page}> {
  const context = await browser.newContext({...PHONE, baseURL});
  await context.addInitScript(TSX_NAMES_IN_PAGE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', {rate: CPU_SLOWDOWN});
  await page.addInitScript(PAGE_PROBE);
  return {context, page};
}

/*
 * Installed before any page script (strings, not functions: tsx decorates named functions with helpers the
 * page lacks). Records, in page time (ms since navigation start): the first pointerdown on the box (the
 * tap) and the moment it becomes ready (enabled combobox).
 */
const PAGE_PROBE = `(() => {
  const probe = {tapAt: 0, readyAt: 0};
  window.__scaleProbe = probe;
  const isBox = (target) => !!(target && target.matches && target.matches(${JSON.stringify(INPUT_SELECTOR)}));
  document.addEventListener('pointerdown', (event) => {
    if (!probe.tapAt && isBox(event.target)) probe.tapAt = performance.now();
  }, true);
  const ready = () => {
    const input = document.querySelector(${JSON.stringify(INPUT_SELECTOR)});
    return !!input && input.getAttribute('role') === 'combobox' && !input.disabled;
  };
  new MutationObserver((records, observer) => {
    if (ready()) {
      probe.readyAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['role', 'disabled']});
})()`;

type Probe = {tapAt: number; readyAt: number};

async function readProbe(page: Page): Promise<Probe> {
  return (await page.evaluate('window.__scaleProbe')) as Probe;
}

const isIndexRequest = (request: Request) => new URL(request.url()).pathname.includes('search-index');

/* ------------------------------------------------------------------------------------------------ */
/* Measurements in the browser                                                                      */
/* ------------------------------------------------------------------------------------------------ */

/**
 * Page time of the results of the last key typed (tests/support/search.ts's probe: the first change of the list
 * after that key), or null when none came in time.
 */
async function waitForLastResults(page: Page, search: typeof SearchSupport): Promise<number | null> {
  if ((await search.lastResultLatency(page, PHONE_TIMEOUT_MS)) === null) return null;
  return (await page.evaluate('window.__searchProbe.renderAt')) as number;
}

/** Figure 3: index bytes on the wire from navigation to the results of a first query, typed key by key. */
async function measureFirstSearch(
  browser: Browser,
  baseURL: string,
  search: typeof SearchSupport,
  query: string,
): Promise<FirstSearch> {
  const {context, page} = await phonePage(browser, baseURL);
  try {
    const started: Request[] = [];
    const finished: Request[] = [];
    context.on('request', (request) => isIndexRequest(request) && started.push(request));
    context.on('requestfinished', (request) => isIndexRequest(request) && finished.push(request));
    await page.goto('/', {timeout: PHONE_TIMEOUT_MS});
    await search.waitForSearchReady(page, PHONE_TIMEOUT_MS);
    await search.instrumentSearch(page);
    await search.searchInput(page).focus();
    await page.keyboard.type(query, {delay: KEY_DELAY_MS});
    const rowAt = await waitForLastResults(page, search);
    const {readyAt} = await readProbe(page);
    if (rowAt === null) return {query, bytes: null, encoding: '', inFlight: 0, readyMs: readyAt};
    // The moment in wall-clock ms, to compare with each request's end (Playwright's timing is wall-clock based).
    const rowEpoch = ((await page.evaluate('performance.timeOrigin')) as number) + rowAt;
    // Every index request started so far, settled: the ones that ended just before the row are then all in.
    await Promise.all(
      started.map(async (request) => (await request.response().catch(() => null))?.finished().catch(() => null)),
    );
    let bytes = 0;
    const encodings = new Set<string>();
    const counted = new Set<Request>();
    for (const request of finished) {
      const timing = request.timing();
      if (timing.startTime + timing.responseEnd > rowEpoch) continue;
      counted.add(request);
      bytes += (await request.sizes()).responseBodySize;
      encodings.add((await request.response())?.headers()['content-encoding'] ?? 'identity');
    }
    // Index requests sent before the row that had not finished by then (not counted above).
    const inFlight = started.filter(
      (request) => !counted.has(request) && request.timing().startTime <= rowEpoch,
    ).length;
    return {query, bytes, encoding: [...encodings].join('+') || 'none', inFlight, readyMs: readyAt};
  } finally {
    await context.close();
  }
}

/** Figure 4: tap on the box as soon as it shows → results of the query typed key by key, on the throttled phone. */
async function measureFocusToResults(
  browser: Browser,
  baseURL: string,
  search: typeof SearchSupport,
  query: string,
): Promise<FocusRun> {
  const {context, page} = await phonePage(browser, baseURL);
  try {
    await page.goto('/', {waitUntil: 'commit', timeout: PHONE_TIMEOUT_MS});
    const input = search.searchInput(page);
    await input.waitFor({state: 'visible', timeout: PHONE_TIMEOUT_MS});
    const tap = async () => {
      const box = await input.boundingBox();
      if (!box) throw new Error('the search box has no box to tap');
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    };
    const tappedAt = (await page.evaluate('performance.now()')) as number;
    await tap();
    // The reader types once the box is ready and holds the focus (text typed into the server-rendered box
    // before hydration is never searched). Should the focus be lost on the way, the reader taps again.
    await search.waitForSearchReady(page, PHONE_TIMEOUT_MS);
    const focused = (timeout: number) =>
      page.waitForFunction((selector) => document.activeElement === document.querySelector(selector), INPUT_SELECTOR, {
        timeout,
        polling: 'raf',
      });
    let retapped = false;
    try {
      await focused(5_000);
    } catch {
      retapped = true;
      await tap();
      await focused(10_000);
    }
    const usableAt = (await page.evaluate('performance.now()')) as number;
    await search.instrumentSearch(page);
    await page.keyboard.type(query, {delay: KEY_DELAY_MS});
    // The last key's moment: typed → results is what the reader waits once done typing.
    const typedAt = (await page.evaluate('window.__searchProbe.inputAt')) as number;
    const rowAt = await waitForLastResults(page, search);
    const probe = await readProbe(page);
    const tapAt = probe.tapAt || tappedAt;
    return {
      query,
      focusToResultsMs: rowAt === null ? null : rowAt - tapAt,
      typedToResultsMs: rowAt === null ? null : rowAt - typedAt,
      waitedForReadyMs: Math.max(0, usableAt - tapAt),
      retapped,
    };
  } finally {
    await context.close();
  }
}

/** Figure 5: every query set through the real box, as bench/search.ts runs them. */
async function measureRelevance(browser: Browser, baseURL: string, search: typeof SearchSupport): Promise<SetScore[]> {
  const page = await browser.newPage({baseURL});
  await page.addInitScript(TSX_NAMES_IN_PAGE);
  try {
    await page.goto('/');
    await search.waitForSearchReady(page, 120_000);
    await search.instrumentSearch(page);
    const anchors = search.loadHeadingAnchors();
    const scores: SetScore[] = [];
    for (const name of Object.keys(search.QUERY_SETS) as SearchSupport.QuerySetName[]) {
      const queries = search.loadQuerySet(name);
      // Each query's own list (open with rows, or "No results"), all read in one call into the page.
      const answers = await search.runQueriesInBox(
        page,
        queries.map(({query}) => query),
        anchors,
      );
      const results = queries.map((query, index) => ({query, hits: answers[index]!}));
      const relevance = search.scoreRelevance(results);
      scores.push({
        name,
        queries: queries.length,
        hitAt1: relevance.hitAt1,
        hitAt3: relevance.hitAt3,
        mrr: relevance.mrr,
        empty: results.filter((result) => result.hits.length === 0).length,
      });
    }
    return scores;
  } finally {
    await page.close();
  }
}

/** `count` first queries, spread evenly over the blind sets (every set whose name starts with "blind"). */
function firstQueries(search: typeof SearchSupport, count: number): string[] {
  const names = (Object.keys(search.QUERY_SETS) as SearchSupport.QuerySetName[]).filter((name) =>
    name.startsWith('blind'),
  );
  const all = names.flatMap((name) => search.loadQuerySet(name).map((query) => query.query));
  return Array.from(
    {length: Math.min(count, all.length)},
    (_, i) => all[Math.floor(((i + 0.5) * all.length) / count)]!,
  );
}

/* ------------------------------------------------------------------------------------------------ */
/* One size, start to end                                                                            */
/* ------------------------------------------------------------------------------------------------ */

const log = (message: string) => console.error(`[search-scale] ${message}`);

async function measureSize(browser: Browser, size: number, sources: string, options: Options): Promise<Row> {
  const dir = makeCopy(sources);
  log(`N=${size}: copy in ${dir}`);
  try {
    const generated = writeGeneratedPages(path.join(dir, 'docs'), size);
    log(`N=${size}: ${generated.pages.length} pages generated (${generated.words} words); building…`);
    const build = await buildCopy(dir);
    const {search, serveBuild, buildDir} = copyModules(dir);
    const index = indexBytes(buildDir);
    const sitemapPages = [...readFileSync(path.join(buildDir, 'sitemap.xml'), 'utf8').matchAll(/<loc>/g)].length;
    log(`N=${size}: built in ${seconds(build.wallMs)}; index ${kib(index.raw)} raw in ${index.files} file(s)`);

    const served = await serveBuild.serveBuild(buildDir);
    try {
      const queries = firstQueries(search, options.queries);
      const firstSearches: FirstSearch[] = [];
      const focusRuns: FocusRun[] = [];
      for (const query of queries) {
        firstSearches.push(await measureFirstSearch(browser, served.origin, search, query));
        focusRuns.push(await measureFocusToResults(browser, served.origin, search, query));
        log(`N=${size}: ${JSON.stringify(query)} measured`);
      }
      const relevance = await measureRelevance(browser, served.origin, search);
      log(`N=${size}: relevance measured`);
      return {size, generated, sitemapPages, build, index, served: served.how, firstSearches, focusRuns, relevance};
    } finally {
      await served.close();
    }
  } finally {
    if (options.keep) log(`N=${size}: kept ${dir}`);
    else rmSync(dir, {recursive: true, force: true});
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* Output                                                                                            */
/* ------------------------------------------------------------------------------------------------ */

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const msText = (ms: number) => (ms >= 10_000 ? seconds(ms) : `${ms.toFixed(0)} ms`);
const kib = (bytes: number) =>
  bytes >= 10 * 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** The whole index in the encoding the server sent (br, gzip, or raw). */
function wireTotal(index: IndexBytes, encoding: string): number {
  if (encoding === 'br') return index.br;
  if (encoding === 'gzip') return index.gzip;
  return index.raw;
}

function firstSearchCell(row: Row): string {
  const measured = row.firstSearches.filter((run) => run.bytes !== null);
  if (measured.length === 0) return 'no result row';
  const bytes = measured.map((run) => run.bytes!);
  const share = (value: number, run: FirstSearch) =>
    `${((100 * value) / wireTotal(row.index, run.encoding)).toFixed(0)} %`;
  const maxRun = measured.reduce((a, b) => (b.bytes! > a.bytes! ? b : a));
  const encodings = [...new Set(measured.map((run) => run.encoding))].join(', ');
  const missing = row.firstSearches.length - measured.length;
  return (
    `${kib(median(bytes))} (${share(median(bytes), measured[0]!)}); max ${kib(maxRun.bytes!)} (${share(maxRun.bytes!, maxRun)})` +
    ` [${encodings}]${missing ? `; ${missing} without a row` : ''}`
  );
}

function focusCell(row: Row, figure: 'focusToResultsMs' | 'typedToResultsMs' = 'focusToResultsMs'): string {
  const times = row.focusRuns.flatMap((run) => (run[figure] === null ? [] : [run[figure]]));
  if (times.length === 0) return 'no result row';
  const missing = row.focusRuns.length - times.length;
  return `${msText(median(times))} (${msText(Math.min(...times))}–${msText(Math.max(...times))})${missing ? `; ${missing} without a row` : ''}`;
}

function printReport(rows: Row[], sources: string, queries: string[]): void {
  const served = [...new Set(rows.map((row) => row.served))].join('; ');
  const sets = rows[0]?.relevance.map((score) => score.name) ?? [];
  console.log(
    [
      `Search at scale: ${rows.map((row) => row.size).join(', ')} generated pages added to a temporary copy of ${sources}, built with \`npm run build\` there.`,
      "Build: wall time from spawn to exit (docusaurus build and precompress); peak RSS = the highest sum of VmRSS over the build's process tree, sampled every 100 ms.",
      'Index: every build file with a path part starting with search-index (search-index-<hash>.json, assets/search-index/…); gzip and br are the .gz/.br twins precompress wrote (zlib gzip 9 / brotli 11 where none).',
      `First search: ${served}; a fresh Chromium context (cold cache) on the phone profile, \`/\`, wait for the box to be ready, one query typed key by key (${KEY_DELAY_MS} ms a key);`,
      'on-the-wire body bytes (request.sizes()) of the search-index responses that finished before the results of the last key, median and max over the queries, and as a share of the whole index in the encoding served.',
      `Phone profile: Lighthouse mobile via CDP, 412×823 touch, latency 150 ms, 1.6 Mbps down, 750 Kbps up, CPU ×${CPU_SLOWDOWN}.`,
      'Focus → results: cold context, the box tapped as soon as it is visible (loading or not), the query typed key by key once the box holds the focus and is ready; tap (pointerdown) to the results of the last key, median (min–max); typed → results: from the last key to its results. Load → ready: navigation start to the box enabled, median over the first-search loads.',
      `Queries for both (${queries.length}, spread over the blind sets): ${queries.map((query) => JSON.stringify(query)).join(', ')}.`,
      'Relevance: every query set through the real box, desktop context, unthrottled, as `npm run bench:search` (hit@1 / hit@3 / MRR; "empty" = queries with no result row). Generated pages are never a query\'s expected page.',
      'Machine: 2 shared cores; timings are noisy (±10 % or more), byte counts are exact.',
    ].join('\n'),
  );
  console.log('');
  const header = [
    'Generated pages (sitemap)',
    'Build',
    'Peak RSS',
    'Index files',
    'Index raw / gzip / br',
    'First search: index bytes median (share); max',
    'Focus → results (phone)',
    'Last key → its results (phone)',
    'Load → ready (phone)',
    ...sets.map((name) => `${name}: hit@1 / hit@3 / MRR, empty`),
  ];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map(() => '---').join(' | ')} |`);
  for (const row of rows) {
    const cells = [
      `${row.size} (${row.sitemapPages})`,
      seconds(row.build.wallMs),
      mib(row.build.peakRssBytes),
      String(row.index.files),
      `${kib(row.index.raw)} / ${kib(row.index.gzip)} / ${kib(row.index.br)}`,
      firstSearchCell(row),
      focusCell(row),
      focusCell(row, 'typedToResultsMs'),
      msText(median(row.firstSearches.map((run) => run.readyMs))),
      ...sets.map((name) => {
        const score = row.relevance.find((item) => item.name === name);
        return score
          ? `${score.hitAt1.toFixed(3)} / ${score.hitAt3.toFixed(3)} / ${score.mrr.toFixed(3)}, ${score.empty} of ${score.queries}`
          : '-';
      }),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  console.log('');
  for (const row of rows) {
    const pages = row.generated.pages.length;
    console.log(
      pages
        ? `N=${row.size}: generated text ${Math.round(row.generated.words / pages)} words per page on average, ` +
            `${row.generated.distinctWords} distinct words over all generated pages.`
        : `N=${row.size}: no generated pages.`,
    );
    for (const [index, run] of row.firstSearches.entries()) {
      const focus = row.focusRuns[index];
      console.log(
        `  ${JSON.stringify(run.query).padEnd(34)} first search ${run.bytes === null ? 'no result row' : `${run.bytes} B ${run.encoding}`}` +
          `${run.inFlight ? ` (+${run.inFlight} index request(s) still in flight)` : ''}; ` +
          `focus → results ${focus?.focusToResultsMs == null ? 'no result row' : msText(focus.focusToResultsMs)}` +
          ` (of which ${msText(focus?.waitedForReadyMs ?? 0)} until the box was focused and ready${focus?.retapped ? ', tapped twice' : ''})`,
      );
    }
  }
}

async function main(): Promise<void> {
  const options = parseOptions();
  const executablePath = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  const sources = snapshotSources(options.ref);
  log(`sources: ${sources.what}, copied to ${sources.dir}`);
  const rows: Row[] = [];
  let queries: string[] = [];
  try {
    for (const size of options.sizes) {
      const row = await measureSize(browser, size, sources.dir, options);
      rows.push(row);
      queries = row.firstSearches.map((run) => run.query);
    }
  } finally {
    await browser.close();
    rmSync(sources.dir, {recursive: true, force: true});
  }
  printReport(rows, sources.what, queries);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
