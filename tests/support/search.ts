// Drives the real search box in the real build, for tests/search.spec.ts and the benches alike.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {Locator, Page} from '@playwright/test';
import {SEARCH} from '../../src/constants/site';
import {BUILD_DIR, builtSidebar, docRoutes, htmlFile} from './docs';

// `own` uses the pages' words (sections included); the others are held out, written blind and frozen: `blind` and
// `blind2` in an integrator's words, `natural` whole questions in readers' and agents' words.
export const QUERY_SETS = {
  own: path.resolve(__dirname, '../../bench/query-sets/own.json'),
  blind: path.resolve(__dirname, '../../bench/query-sets/blind-1.json'),
  blind2: path.resolve(__dirname, '../../bench/query-sets/blind-2.json'),
  natural: path.resolve(__dirname, '../../bench/query-sets/blind-3.json'),
} as const;
export type QuerySetName = keyof typeof QUERY_SETS;

export type SearchQuery = {query: string; page: string; section?: string};

export function loadQuerySet(name: QuerySetName = 'own'): SearchQuery[] {
  return (JSON.parse(readFileSync(QUERY_SETS[name], 'utf8')) as {queries: SearchQuery[]}).queries;
}

export {BUILD_DIR, searchIndexFiles} from './bytes';

/** Lunr syntax, emoji, RTL and HTML: each within the bound, searched as typed (tests and benchmark). */
export const HOSTILE_QUERIES: readonly string[] = [
  ...['*', '~', '^', ':', '+', '-', '"', "'", '\\'],
  ...['web*', 'sdk~2', 'token^10', 'title:sdk', '+refund -invoice', '"webhook signature"', 'C:\\path\\to'],
  ...['🚀📶', 'eSIM 🚀', 'بطاقة eSIM', 'שלום'],
  ...['<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '</span><b>bold</b>'],
];

/** Over-long queries (2,000 characters): what the box cuts each to, why, and what the list then shows. */
type LongQuery = {query: string; bounded: string; cut: 'length' | 'words'; answer: 'no results' | RegExp};
export const LONG_QUERIES: readonly LongQuery[] = [
  {query: 'a'.repeat(2000), bounded: 'a'.repeat(SEARCH.maxQueryLength), cut: 'length', answer: 'no results'},
  {query: 'sdk '.repeat(500), bounded: Array(SEARCH.maxQueryWords).fill('sdk').join(' '), cut: 'words', answer: /sdk/i},
  {query: '🚀'.repeat(1000), bounded: '🚀'.repeat(SEARCH.maxQueryLength / 2), cut: 'length', answer: 'no results'},
];

export const searchInput = (page: Page): Locator => page.locator('input.navbar__search-input');
export const searchListbox = (page: Page): Locator => page.locator('.navbar [role="listbox"]');

/** Ready = the plugin's autocomplete is built (combobox) and our wrap has enabled the box. */
export async function waitForSearchReady(page: Page, timeout = 15_000): Promise<void> {
  await page.locator('input.navbar__search-input[role="combobox"]:enabled').waitFor({state: 'attached', timeout});
}

/** Records, in the page, when the input last changed and when the result list first changed after it. */
export async function instrumentSearch(page: Page): Promise<void> {
  // A string, not a function: TS runners (tsx) decorate named functions with helpers the page lacks.
  await page.evaluate(PROBE_SCRIPT);
}

// A keystroke starts at its beforeinput (an edit the box bounds is re-entered later, as an input event without one);
// an input event without a beforeinput starts its own measure; the list's next change is when results are shown.
const PROBE_SCRIPT = `(() => {
  if (window.__searchProbe) return;
  const probe = {inputAt: 0, renderAt: 0, pending: false};
  window.__searchProbe = probe;
  const onEdit = (event) => {
    if (!(event.target && event.target.matches && event.target.matches('input.navbar__search-input'))) return;
    if (event.type === 'beforeinput' || !probe.pending) {
      probe.inputAt = performance.now();
      probe.pending = true;
    }
  };
  document.addEventListener('beforeinput', onEdit, true);
  document.addEventListener('input', onEdit, true);
  const listbox = document.querySelector('.navbar [role="listbox"]');
  if (!listbox) throw new Error('search listbox not found: is the box ready?');
  new MutationObserver(() => {
    if (probe.pending) {
      probe.pending = false;
      probe.renderAt = performance.now();
    }
  }).observe(listbox, {childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['style']});
})()`;

type ProbedWindow = {__searchProbe: {pending: boolean}};

/** Milliseconds from the last input to the first render of results after it (null: none in time). */
export async function lastResultLatency(page: Page, timeout = 3_000): Promise<number | null> {
  try {
    // A function: a string predicate is evaluated at every poll, which deploy/'s CSP (no unsafe-eval) refuses.
    await page.waitForFunction(() => !(window as unknown as ProbedWindow).__searchProbe.pending, undefined, {
      timeout,
      polling: 10,
    });
  } catch {
    return null;
  }
  return (await page.evaluate('window.__searchProbe.renderAt - window.__searchProbe.inputAt')) as number;
}

export type Anchors = Map<string, Map<string, string>>;

export type SearchHit = {title: string; pathText: string; page: string | null; section: string | null};

/** Headings (h2/h3) of each built page: text → anchor, to read sections off the result list. */
export function loadHeadingAnchors(buildDir: string = BUILD_DIR): Anchors {
  const byPage: Anchors = new Map();
  for (const route of docRoutes(buildDir)) {
    const html = readFileSync(htmlFile(route, buildDir), 'utf8');
    const anchors = new Map<string, string>();
    // The HTML minifier drops the quotes around attribute values that need none (`id=refunds`).
    for (const match of html.matchAll(/<h[23][^>]*\sid=(?:"([^"]+)"|([^\s">]+))[^>]*>([\s\S]*?)<\/h[23]>/g)) {
      anchors.set(normalise(stripTags(match[3] ?? '')), `#${match[1] ?? match[2]}`);
    }
    byPage.set(route, anchors);
  }
  return byPage;
}

const ENTITIES: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#039': "'"};
function stripTags(html: string): string {
  return html.replace(/<[^>]+>/g, '').replace(/&(amp|lt|gt|quot|#0?39);/g, (_, name: string) => ENTITIES[name]!);
}

const SPACES = /[\s\u200b]+/g;
/** Spaces of any kind (zero-width ones too) as one, trimmed, lower case: how headings and path texts are compared. */
function normalise(text: string): string {
  return text.replace(SPACES, ' ').trim().toLowerCase();
}

/** Page titles and category labels as the built sidebar shows them (read once). */
let sidebarNames: {pageByTitle: Map<string, string>; categoryLabels: Set<string>} | undefined;
function names(): NonNullable<typeof sidebarNames> {
  if (sidebarNames) return sidebarNames;
  const groups = builtSidebar(BUILD_DIR);
  return (sidebarNames = {
    pageByTitle: new Map(groups.flatMap((group) => group.pages).map((page) => [normalise(page.title), page.path])),
    categoryLabels: new Set(groups.flatMap((group) => (group.label === null ? [] : [normalise(group.label)]))),
  });
}

// Each shown result's page and section: the plugin shows "Category › Page › Section" under a hit, "Category" under a
// page-title hit, and "Page" under a hit grouped below its page.
function hitsFromRows(rows: {title: string; pathText: string}[], anchors: Anchors): SearchHit[] {
  const {pageByTitle, categoryLabels} = names();
  return rows.map(({title, pathText}) => {
    const parts = pathText.split('›').map(normalise).filter(Boolean);
    const titleHit = parts.length === 1 && categoryLabels.has(parts[0]!);
    const pageTitle = parts.length >= 2 ? parts[1] : titleHit ? normalise(title) : parts[0];
    const pagePath = pageTitle ? (pageByTitle.get(pageTitle) ?? null) : null;
    const sectionText = titleHit || parts.length === 0 ? null : (parts[2] ?? normalise(title));
    const section = pagePath && sectionText ? (anchors.get(pagePath)?.get(sectionText) ?? null) : null;
    return {title, pathText, page: pagePath, section};
  });
}

// Many queries in one call into the page (a round trip costs more than a search): each clears the box until the list
// closes, enters the query as one edit and reads the list once it answers.
export async function runQueriesInBox(page: Page, queries: readonly string[], anchors: Anchors) {
  const rowsPerQuery = await page.evaluate(async (all) => {
    const input = document.querySelector<HTMLInputElement>('input.navbar__search-input');
    const listbox = document.querySelector('.navbar [role="listbox"]');
    if (!input || !listbox) throw new Error('search box not found: is it ready?');
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    const enter = (value: string) => {
      setValue.call(input, value);
      input.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertText', data: value}));
    };
    const isOpen = () => getComputedStyle(listbox).display !== 'none' && listbox.getClientRects().length > 0;
    const options = () => Array.from(listbox.querySelectorAll('[role="option"]'));
    // Resolves when the list reaches a state: checked now and after each change of the list.
    const until = (reached: () => boolean) =>
      new Promise<void>((resolve) => {
        if (reached()) return resolve();
        const observer = new MutationObserver(() => {
          if (reached()) {
            observer.disconnect();
            resolve();
          }
        });
        observer.observe(listbox, {childList: true, subtree: true, characterData: true, attributes: true});
      });
    const answers: {title: string; pathText: string}[][] = [];
    for (const query of all) {
      enter('');
      await until(() => !isOpen() || options().length === 0);
      enter(query);
      await until(() => isOpen() && (options().length > 0 || /No results/.test(listbox.textContent ?? '')));
      answers.push(
        options().map((option) => ({
          title: (option.querySelector('[class*="hitTitle"]')?.textContent ?? '').trim(),
          pathText: (option.querySelector('[class*="hitPath"]')?.textContent ?? '').trim(),
        })),
      );
    }
    return answers;
  }, queries);
  return rowsPerQuery.map((rows) => hitsFromRows(rows, anchors));
}

/** Clears the box, enters the query in one edit and waits for its answer (latency null after `timeout` ms; 0: none). */
export async function runQuery(page: Page, query: string, anchors: Anchors, timeout = 3_000) {
  const input = searchInput(page);
  await input.fill('');
  await input.fill(query);
  const latencyMs = await lastResultLatency(page, timeout);
  const rows = await searchListbox(page)
    .locator('[role="option"]')
    .evaluateAll((options) =>
      options.map((option) => ({
        title: (option.querySelector('[class*="hitTitle"]')?.textContent ?? '').trim(),
        pathText: (option.querySelector('[class*="hitPath"]')?.textContent ?? '').trim(),
      })),
    );
  return {hits: hitsFromRows(rows, anchors), latencyMs};
}

export function scoreRelevance(results: {query: SearchQuery; hits: SearchHit[]}[]) {
  const perQuery = results.map(({query, hits}) => {
    const index = hits.findIndex((hit) => hit.page === query.page);
    const sectionFound = query.section
      ? hits.slice(0, 3).some((hit) => hit.page === query.page && hit.section === query.section)
      : null;
    return {
      query: query.query,
      expected: `${query.page}${query.section ?? ''}`,
      rank: index >= 0 ? index + 1 : null,
      sectionFound,
      top: hits.slice(0, 3).map((hit) => `${hit.page ?? '?'}${hit.section ?? ''}`),
    };
  });
  const n = perQuery.length;
  const withSection = perQuery.filter((row) => row.sectionFound !== null);
  return {
    hitAt1: perQuery.filter((row) => row.rank === 1).length / n,
    hitAt3: perQuery.filter((row) => row.rank !== null && row.rank <= 3).length / n,
    mrr: perQuery.reduce((sum, row) => sum + (row.rank ? 1 / row.rank : 0), 0) / n,
    sectionHitAt3: withSection.filter((row) => row.sectionFound).length / Math.max(1, withSection.length),
    perQuery,
  };
}
