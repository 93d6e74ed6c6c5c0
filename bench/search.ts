/**
 * `npm run bench:search`: measures the search box of the existing production build (it builds
 * nothing; run `npm run build` first). Serves build/ with `docusaurus serve` on a free port and,
 * in Chromium, runs every query set (QUERY_SETS) through the real UI: the project's own
 * (bench/query-sets/own.json, in the pages' words) and the held-out ones (bench/query-sets/blind-*.json,
 * in an integrator's words, frozen), and through the MCP server's search_docs over the same build.
 *
 * Prints, for each set, box and search_docs: hit@1, hit@3 and MRR (plus section hit@3 where queries name a
 * section) and how many queries got no result at all.
 * A query's rank is the first row of the shown list (up to SEARCH.resultLimit rows) that belongs to
 * the expected page; MRR is over that whole list (not cut at 3), 0 when the page is not shown.
 * Also prints: index size raw and gzip, time from page load
 * to search-ready, median / p95 time from keystroke to results shown, and the time from entering
 * each hostile query (tests/support/search.ts: lunr syntax, emoji, RTL, HTML and the 2,000-character
 * queries) to its results shown (median and max over HOSTILE_RUNS entries). Speed is measured here,
 * never asserted by the e2e tests.
 *
 * `npm run bench:search -- --queries <file.json>[,…] [--box] [--quiet]`: only relevance, of query files of the same
 * shape (such as bench/query-sets/), through search_docs in Node and, with `--box`, through the real box, with the
 * queries whose page is not first (`--quiet`: the scores only, so that a held-out set's misses stay unread).
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import {chromium, type Browser} from '@playwright/test';
import {
  BUILD_DIR,
  HOSTILE_QUERIES,
  LONG_QUERIES,
  instrumentSearch,
  lastResultLatency,
  loadHeadingAnchors,
  loadQuerySet,
  QUERY_SETS,
  runQuery,
  scoreRelevance,
  searchIndexFiles,
  type SearchHit,
  type SearchQuery,
  searchInput,
  waitForSearchReady,
} from '../tests/support/search';
import {argFlag, argValue, TSX_NAMES_IN_PAGE} from './cli';
import {freePort} from '../lib/ports';
import {BuiltDocs} from '../mcp/docs';
import {docRoutes} from '../tests/support/docs';

const READY_RUNS = 7;
const HOSTILE_RUNS = 5;

async function serve(port: number): Promise<ChildProcess> {
  const bin = path.resolve(__dirname, '../node_modules/.bin/docusaurus');
  const child = spawn(bin, ['serve', '--host', '127.0.0.1', '--port', String(port), '--no-open', '--dir', BUILD_DIR], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) {
        return child;
      }
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill();
  throw new Error('docusaurus serve did not start');
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? NaN;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

/** Page load (navigation start) → search ready, and load event → ready, over fresh contexts. */
async function measureReady(
  browser: Browser,
  baseURL: string,
): Promise<{fromNavigation: number[]; fromLoad: number[]}> {
  const fromNavigation: number[] = [];
  const fromLoad: number[] = [];
  for (let run = 0; run < READY_RUNS; run += 1) {
    const context = await browser.newContext({baseURL});
    await context.addInitScript(TSX_NAMES_IN_PAGE);
    const page = await context.newPage();
    await page.goto(run % 2 ? '/basics/iframe' : '/');
    await waitForSearchReady(page);
    const times = await page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return {ready: performance.now(), load: navigation?.loadEventEnd ?? 0};
    });
    // waitForSearchReady polls every animation frame; the error is a frame (~16 ms).
    fromNavigation.push(times.ready);
    fromLoad.push(times.ready - times.load);
    await context.close();
  }
  return {fromNavigation, fromLoad};
}

/** The box of the build served at `baseURL`, ready to take queries one edit each. */
async function openBox(browser: Browser, baseURL: string) {
  const page = await browser.newPage({baseURL});
  await page.addInitScript(TSX_NAMES_IN_PAGE);
  await page.goto('/');
  await waitForSearchReady(page);
  await instrumentSearch(page);
  return page;
}

/** Chromium for the box: Debian's when it is there. */
const launchBrowser = () =>
  chromium.launch({
    executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
    args: ['--no-sandbox', '--disable-gpu'],
  });

/** search_docs' answer to a query, as hits of a page (it names no section). */
async function viaSearchDocs(docs: BuiltDocs, query: string): Promise<SearchHit[]> {
  return (await docs.search(query)).map(({url, title}) => ({
    title,
    pathText: '',
    page: new URL(url).pathname,
    section: null,
  }));
}

/** The build must hold a search index: this benchmark builds nothing. */
function requireBuild(): void {
  if (!existsSync(BUILD_DIR) || searchIndexFiles().length === 0) {
    throw new Error('No build/ with a search index: run `npm run build` first (this benchmark builds nothing).');
  }
}

/** A query file: `{"queries": [{"query": …, "page": …}, …]}`, at least one; any other shape names the file. */
function loadQueryFile(file: string): SearchQuery[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not a readable JSON file (${(error as Error).message})`);
  }
  const queries = (parsed as {queries?: unknown} | null)?.queries;
  if (!Array.isArray(queries) || queries.length === 0) {
    throw new Error(`${file}: expected {"queries": [{"query": "…", "page": "/…"}, …]} with at least one query`);
  }
  const malformed = queries.findIndex(
    (entry) => typeof (entry as SearchQuery)?.query !== 'string' || typeof (entry as SearchQuery)?.page !== 'string',
  );
  if (malformed >= 0) throw new Error(`${file}: query ${malformed + 1} needs a string "query" and a string "page"`);
  return queries as SearchQuery[];
}

/**
 * Relevance of query files through search_docs, and with `--box` through the real box too; with `--quiet`, the
 * scores only (a held-out set keeps its misses unread). Every file is read before anything starts.
 */
async function scoreFiles(files: string[], {box, quiet}: {box: boolean; quiet: boolean}): Promise<void> {
  const sets = files.map((file) => ({file, queries: loadQueryFile(file)}));
  requireBuild();
  const routes = new Set(docRoutes());
  const docs = new BuiltDocs(BUILD_DIR);
  const port = box ? await freePort() : 0;
  const server = box ? await serve(port) : undefined;
  const browser = box ? await launchBrowser() : undefined;
  try {
    const page = browser ? await openBox(browser, `http://127.0.0.1:${port}`) : undefined;
    const anchors = loadHeadingAnchors();
    for (const {file, queries} of sets) {
      const unknown = queries.filter(({page: expected}) => !routes.has(expected)).length;
      if (unknown > 0) console.log(`${file}: ${unknown} queries expect a page this build does not have (misses)`);
      const ways: {name: string; results: {query: SearchQuery; hits: SearchHit[]}[]}[] = [
        {name: 'search_docs', results: []},
      ];
      if (page) ways.push({name: 'box', results: []});
      for (const query of queries) {
        ways[0]!.results.push({query, hits: await viaSearchDocs(docs, query.query)});
        if (page) ways[1]!.results.push({query, hits: (await runQuery(page, query.query, anchors)).hits});
      }
      for (const {name, results} of ways) {
        const relevance = scoreRelevance(results);
        const empty = results.filter(({hits}) => hits.length === 0).length;
        console.log(
          `${file}: ${name} hit@1 ${relevance.hitAt1.toFixed(3)}, hit@3 ${relevance.hitAt3.toFixed(3)}, ` +
            `MRR ${relevance.mrr.toFixed(3)}, ${empty} empty (${queries.length} queries)`,
        );
        if (quiet) continue;
        for (const row of relevance.perQuery.filter(({rank}) => rank !== 1)) {
          console.log(
            `  "${row.query}" → expected ${row.expected}, rank ${row.rank ?? '-'}; top: ${row.top.join(', ')}`,
          );
        }
      }
      if (page) {
        // Per query, not only per score: the two ways are one code path and must rank alike.
        const [viaDocs, viaBox] = ways.map(({results}) => scoreRelevance(results).perQuery);
        const differ = viaDocs!.filter((row, index) => row.rank !== viaBox![index]!.rank).length;
        console.log(`${file}: ${differ} of ${queries.length} queries rank the expected page differently in the box`);
      }
    }
  } finally {
    await browser?.close();
    server?.kill();
  }
}

async function main(): Promise<void> {
  const queryFiles = argValue('--queries');
  const box = argFlag('--box');
  const quiet = argFlag('--quiet');
  if (queryFiles) return scoreFiles(queryFiles.split(','), {box, quiet});
  if (box || quiet) throw new Error('--box and --quiet go with --queries <file.json>[,…]');
  requireBuild();
  const indexFiles = searchIndexFiles();
  const raw = indexFiles.reduce((sum, file) => sum + readFileSync(file).length, 0);
  const gzip = indexFiles.reduce((sum, file) => sum + gzipSync(readFileSync(file)).length, 0);

  const port = await freePort();
  const server = await serve(port);
  const baseURL = `http://127.0.0.1:${port}`;
  const browser = await launchBrowser();
  try {
    const ready = await measureReady(browser, baseURL);

    const page = await openBox(browser, baseURL);
    const anchors = loadHeadingAnchors();
    const querySet = loadQuerySet('own');
    const docs = new BuiltDocs(BUILD_DIR);

    // Relevance: each query entered in one edit, results read off the list.
    const relevanceBySet = [];
    for (const name of Object.keys(QUERY_SETS) as (keyof typeof QUERY_SETS)[]) {
      const queries = loadQuerySet(name);
      const results = [];
      const viaMcp = [];
      for (const query of queries) {
        const {hits} = await runQuery(page, query.query, anchors);
        results.push({query, hits});
        viaMcp.push({query, hits: await viaSearchDocs(docs, query.query)});
      }
      relevanceBySet.push({
        name,
        file: path.relative(process.cwd(), QUERY_SETS[name]),
        count: queries.length,
        relevance: scoreRelevance(results),
        mcp: scoreRelevance(
          viaMcp.map(({query, hits}) => ({query, hits: hits.map((hit) => ({...hit, section: null}))})),
        ),
        empty: results.filter(({hits}) => hits.length === 0).length,
        mcpEmpty: viaMcp.filter(({hits}) => hits.length === 0).length,
      });
    }

    // Latency: every query typed key by key; each keystroke timed to the next results render.
    const keystrokeLatencies: number[] = [];
    let unanswered = 0;
    const input = searchInput(page);
    for (const {query} of querySet) {
      await input.fill('');
      await input.focus();
      for (const char of query) {
        await page.keyboard.type(char);
        const latency = await lastResultLatency(page, 2_000);
        if (latency === null) {
          unanswered += 1;
        } else {
          keystrokeLatencies.push(latency);
        }
      }
    }
    // Hostile queries: each entered in one edit (after a plain query) HOSTILE_RUNS times.
    const hostile: string[] = [];
    const hostileLatencies: number[] = [];
    for (const query of [...HOSTILE_QUERIES, ...LONG_QUERIES.map((long) => long.query)]) {
      const runs: number[] = [];
      let missing = 0;
      for (let run = 0; run < HOSTILE_RUNS; run += 1) {
        await runQuery(page, 'sdk', anchors);
        const {latencyMs} = await runQuery(page, query, anchors);
        if (latencyMs === null) {
          missing += 1;
        } else {
          runs.push(latencyMs);
        }
      }
      hostileLatencies.push(...runs);
      const label = JSON.stringify(query.length > 24 ? `${query.slice(0, 12)}…(${query.length} chars)` : query);
      hostile.push(
        `  ${label.padEnd(30)} ${runs.length ? `median ${ms(percentile(runs, 50))}, max ${ms(Math.max(...runs))}` : 'no render'}` +
          `${missing && runs.length ? ` (${missing} without a render)` : ''}`,
      );
    }

    console.log(
      `Search benchmark (build/ served on :${port}, Chromium; latency over the own set's ${querySet.length} queries)`,
    );
    console.log('');
    console.log('Relevance: rank = first shown row on the expected page; MRR over the whole shown list (not @3).');
    const routes = new Set(docRoutes());
    for (const {name, file, count, relevance, mcp, empty, mcpEmpty} of relevanceBySet) {
      const sections = relevance.perQuery.some((row) => row.sectionFound !== null)
        ? `, section hit@3 ${relevance.sectionHitAt3.toFixed(3)} (queries that name a section)`
        : '';
      console.log(
        `${`${name} set`.padEnd(10)} hit@1 ${relevance.hitAt1.toFixed(3)}, hit@3 ${relevance.hitAt3.toFixed(3)}, ` +
          `MRR ${relevance.mrr.toFixed(3)}${sections}, ${empty} empty (${count} queries, ${file})`,
      );
      console.log(
        `${''.padEnd(10)} search_docs: hit@1 ${mcp.hitAt1.toFixed(3)}, hit@3 ${mcp.hitAt3.toFixed(3)}, ` +
          `MRR ${mcp.mrr.toFixed(3)}, ${mcpEmpty} empty`,
      );
      // A query whose expected page is no route of the build can never count: say so, score it as it stands.
      const unknown = new Map<string, number>();
      for (const row of relevance.perQuery) {
        const expectedPage = row.expected.replace(/#.*$/, '');
        if (!routes.has(expectedPage)) {
          unknown.set(expectedPage, (unknown.get(expectedPage) ?? 0) + 1);
        }
      }
      for (const [expectedPage, queries] of unknown) {
        console.log(
          `           ${queries} ${queries === 1 ? 'query expects' : 'queries expect'} ${expectedPage}, not a page of this build (counted as misses)`,
        );
      }
    }
    console.log(
      `index size       ${kb(raw)} raw, ${kb(gzip)} gzip (${path.basename(indexFiles[0]!)} and ${indexFiles.length - 1} parts)`,
    );
    console.log(
      `load → ready     median ${ms(percentile(ready.fromNavigation, 50))} from navigation start, ` +
        `${ms(percentile(ready.fromLoad, 50))} after the load event (max ${ms(Math.max(...ready.fromNavigation))}, ${READY_RUNS} cold loads)`,
    );
    console.log(
      `keystroke → results  median ${ms(percentile(keystrokeLatencies, 50))}, p95 ${ms(percentile(keystrokeLatencies, 95))}, ` +
        `max ${ms(Math.max(...keystrokeLatencies))} (${keystrokeLatencies.length} keystrokes${unanswered ? `, ${unanswered} without a new render` : ''})`,
    );
    console.log(
      `hostile queries  median ${ms(percentile(hostileLatencies, 50))}, p95 ${ms(percentile(hostileLatencies, 95))}, ` +
        `max ${ms(Math.max(...hostileLatencies))} (${hostile.length} queries × ${HOSTILE_RUNS} entries, entry → results shown)`,
    );
    for (const line of hostile) {
      console.log(line);
    }
    for (const {name, relevance} of relevanceBySet) {
      const misses = relevance.perQuery.filter((row) => row.rank !== 1);
      if (misses.length > 0) {
        console.log('');
        console.log(`Not first (${name} set):`);
        for (const row of misses) {
          console.log(
            `  ${JSON.stringify(row.query)} → expected ${row.expected}, rank ${row.rank ?? '-'}; top: ${row.top.join(', ')}`,
          );
        }
      }
    }
  } finally {
    await browser.close();
    server.kill();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
