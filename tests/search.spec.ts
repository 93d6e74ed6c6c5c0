import path from 'node:path';
import type {Page} from '@playwright/test';
import {baseURL} from '../playwright.config';
import {SEARCH} from '../src/constants/site';
import {BuiltDocs} from '../mcp/docs';
import {axeBuilder} from './support/axe';
import {BUILD_DIR, gzipSize, searchIndexFiles} from './support/bytes';
import {expect, openPage, test} from './support/fixtures';
import {boundQuery} from '../src/theme/SearchBar/searchBox';
import {
  type Anchors,
  HOSTILE_QUERIES,
  LONG_QUERIES,
  instrumentSearch,
  loadHeadingAnchors,
  loadQuerySet,
  QUERY_SETS,
  type QuerySetName,
  runQuery,
  runQueriesInBox,
  scoreRelevance,
  searchInput,
  searchListbox,
  waitForSearchReady,
} from './support/search';

const RELEVANCE_GOALS = {own: [0.9, 0.85], blind: [0.97, 0.92], blind2: [0.97, 0.92], natural: [0.9, 0.8]} as const;
const MAC_USER_AGENT =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const INDEX_FILES = '**/search-index*.json';
// What the reader sees, as spec §9 words it (not read from the constants the box itself uses).
const PLACEHOLDER = 'Search';
const LOADING_TEXT = 'Loading...';

function searchBox(page: Page) {
  const input = searchInput(page);
  const listbox = searchListbox(page);
  const first = listbox.getByRole('option').first();
  const search = async (query: string) => {
    await input.fill(query);
    await expect(first).toBeVisible();
  };
  return {input, listbox, first, search};
}

async function openSearch(page: Page, url = '/') {
  await openPage(page, url);
  await waitForSearchReady(page);
  return searchBox(page);
}

/** Searches `sdk`, then the query: the list renders again after it, so the query was searched (no exception or hang). */
async function searchAfterSdk(page: Page, anchors: Anchors, query: string) {
  // 0: runQuery waits for the render with no clock of its own, only the test's timeout bounds it.
  await runQuery(page, 'sdk', anchors, 0);
  await expect(searchListbox(page)).toContainText(/sdk/i);
  const {latencyMs} = await runQuery(page, query, anchors, 0);
  expect(latencyMs, `no results render after ${JSON.stringify(query.slice(0, 40))}`).not.toBeNull();
  await expect(searchListbox(page)).toBeVisible();
}

test('search box states (spec §2, §4, §9): on a slow network it is disabled and reads Loading... until the index arrives, then ready; a Ctrl+K pressed meanwhile focuses it then', async ({
  page,
  isMobile,
}) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let delivered = false;
  await page.route(INDEX_FILES, async (route) => {
    await held;
    await route.continue();
    delivered = true;
  });
  // Listen before loading: the index may be requested as soon as the page has hydrated.
  const indexRequested = page.waitForRequest(INDEX_FILES);
  await openPage(page, '/basics/iframe');
  await indexRequested;
  // The shortcut is for a hardware keyboard: phones have none.
  if (!isMobile) await page.keyboard.press('Control+k');
  // Two idle periods and a frame go by while the index is still held.
  await page.evaluate(
    () => new Promise((done) => requestIdleCallback(() => requestIdleCallback(() => requestAnimationFrame(done)))),
  );
  expect(delivered).toBe(false);
  const input = searchInput(page);
  await expect(input).toBeVisible();
  await expect(input).toBeDisabled();
  await expect(input).not.toHaveAttribute('role', 'combobox');
  await expect(input).toHaveAttribute('placeholder', LOADING_TEXT);
  await expect(page.locator('[data-search-status="loading"]')).toHaveAttribute('aria-busy', 'true');
  await expect(input).not.toBeFocused();

  release();
  await waitForSearchReady(page);
  await expect(input).toBeEnabled();
  await expect(input).toHaveAttribute('placeholder', PLACEHOLDER);
  await expect(page.locator('[data-search-status="ready"]')).toHaveAttribute('aria-busy', 'false');
  if (!isMobile) await expect(input, 'focused by the Ctrl+K pressed while loading').toBeFocused();
});

// Touch at the widest mobile layout (a tablet): the phone project has touch, the desktop one has not.
test('at the 996 px breakpoint, the box is usable from the mobile navbar', {tag: '@phone-only'}, async ({page}) => {
  await page.setViewportSize({width: 996, height: 800});
  const {input, first} = await openSearch(page);
  await expect(page.locator('.navbar__toggle')).toBeVisible();
  await input.tap();
  await page.keyboard.type('postman');
  // Results for a prefix ("pos") can show while the last keys are still being searched: wait for the full query's.
  await expect(first.locator('mark').first()).toHaveText(/^postman$/i);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/_highlight=postman/);
});

// A hardware keyboard's shortcuts, hint, arrows and Escape: desktop behaviours.
test.describe('search box from the keyboard', {tag: '@desktop-only'}, () => {
  const platforms = [
    {name: 'off Mac', hint: /^Ctrl\s*K$/, modifier: 'Control', title: 'the Ctrl K hint, and Ctrl+K'},
    {name: 'on a Mac', userAgent: MAC_USER_AGENT, hint: /^⌘\s*K$/, modifier: 'Meta', title: 'the ⌘ K hint, and Cmd+K'},
  ];
  for (const {name, userAgent, hint, modifier, title} of platforms) {
    test.describe(name, () => {
      if (userAgent) test.use({userAgent});

      test(`${title} focuses the box from anywhere on the page; arrows move through results, Enter opens, Escape closes; combobox and listbox roles`, async ({
        page,
      }) => {
        const {input, listbox} = await openSearch(page, '/account-management/billing');
        await expect(page.getByTestId('search-shortcut-hint')).toHaveText(hint);
        await expect(page.getByTestId('search-shortcut-hint')).toBeVisible();
        await expect(input).toHaveAttribute('placeholder', PLACEHOLDER);
        await expect(input).toHaveAttribute('aria-keyshortcuts', `${modifier}+K`);
        // From the article (the focus on the page's body), and from a focused link.
        await page.locator('article h1').click();
        await page.keyboard.press(`${modifier}+k`);
        await expect(input).toBeFocused();
        await page.getByRole('link', {name: 'Contact and help center'}).last().focus();
        await page.keyboard.press(`${modifier}+k`);
        await expect(input).toBeFocused();

        await page.keyboard.type('webhook');
        await expect(listbox).toBeVisible();
        const combobox = page.getByRole('combobox', {name: 'Search'});
        await expect(combobox).toHaveAttribute('aria-expanded', 'true');
        await expect(combobox).toHaveAttribute('aria-owns', (await listbox.getAttribute('id')) ?? '');
        const options = listbox.getByRole('option');
        expect(await options.count()).toBeGreaterThan(2);
        const selected = listbox.locator('[role="option"][aria-selected="true"]');
        const [top, next] = await options.evaluateAll((all) => all.slice(0, 2).map((option) => option.id));
        await expect(selected).toHaveAttribute('id', top!);
        await page.keyboard.press('ArrowDown');
        await expect(selected).toHaveAttribute('id', next!);
        await expect(combobox).toHaveAttribute('aria-activedescendant', next!);
        await page.keyboard.press('ArrowUp');
        await expect(selected).toHaveAttribute('id', top!);

        await page.keyboard.press('Escape');
        await expect(listbox).toBeHidden();
        await expect(combobox).toHaveAttribute('aria-expanded', 'false');
        await combobox.focus();
        await page.keyboard.press('ArrowDown');
        await expect(listbox).toBeVisible();
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await expect(page).toHaveURL(/_highlight=webhook/);
        await expect(page.locator('article mark').first()).toBeVisible();
      });
    });
  }
});

// On a phone the box sits in the navbar too (not behind the menu), used by touch. The bound keeps any query fast.
test('the box loads its index without any interaction soon after hydration; a 2,000-character query is cut to the bound, says so, and the bounded query is searched; selecting a result (a click, or a tap on a phone) navigates to it and highlights the matched word on the target page', async ({
  page,
  hasTouch,
}) => {
  const indexRequest = page.waitForRequest(INDEX_FILES);
  await openPage(page, '/additional/changelog');
  expect((await indexRequest).url()).toMatch(/search-index-[0-9a-f]+\.json$/);
  await waitForSearchReady(page, 10_000);
  const {input, listbox, first} = searchBox(page);
  await expect(page.locator('nav.navbar').locator(input)).toBeVisible();
  if (hasTouch) {
    await input.tap();
    await expect(input).toBeFocused();
  }
  await instrumentSearch(page);
  const anchors = loadHeadingAnchors();
  const notice = page.getByRole('status').filter({hasText: /Only the first/});
  const bound = {length: `${SEARCH.maxQueryLength} characters`, words: `${SEARCH.maxQueryWords} words`};
  for (const {query, bounded, cut, answer} of LONG_QUERIES) {
    await searchAfterSdk(page, anchors, query);
    // The box holds exactly the bounded query (the autocomplete searches the box's value)…
    await expect(input).toHaveValue(bounded);
    expect(bounded.length).toBeLessThanOrEqual(SEARCH.maxQueryLength);
    expect(bounded.split(/[\s-]+/).filter(Boolean).length).toBeLessThanOrEqual(SEARCH.maxQueryWords);
    expect(query.startsWith(bounded)).toBe(true);
    expect(boundQuery(query)).toEqual({query: bounded, cut});
    await expect(notice).toHaveText(`Only the first ${bound[cut]} are searched.`);
    await expect(page.locator('[data-query-cut]')).toHaveAttribute('data-query-cut', cut);
    // …and the list shows that query's answer, not the previous one's.
    if (answer === 'no results') {
      await expect(listbox).toContainText('No results');
      await expect(listbox.getByRole('option')).toHaveCount(0);
    } else {
      await expect(first).toContainText(answer);
    }
  }
  await input.press('x');
  await expect(notice).toBeVisible();
  await input.press('Backspace');
  await expect(notice).toBeHidden();
  await input.fill('invoice');
  await expect(first).toContainText(/invoice/i);
  const box = await listbox.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
  await (hasTouch ? first.tap() : first.click());
  await expect(page).toHaveURL(/\/account-management\/billing\?_highlight=invoice/);
  await expect(page.getByRole('heading', {level: 1})).toHaveText('Billing');
  const mark = page.locator('article mark').first();
  await expect(mark).toBeVisible();
  await expect(mark).toHaveText(/invoice/i);
});

// The highlighter runs on the article at any width: run once.
test.describe('when highlighting the searched words fails', {tag: '@viewport-independent'}, () => {
  test.use({allowedConsoleErrors: /\[search\] Could not highlight/});

  test('the error is logged to the console only and the page still works', async ({page}) => {
    const logged = page.waitForEvent('console', {
      predicate: (message) => message.type() === 'error' && /Could not highlight/.test(message.text()),
    });
    // mark.js walks the article with a NodeIterator: make that fail.
    await page.addInitScript(() => {
      Document.prototype.createNodeIterator = () => {
        throw new Error('simulated highlight failure');
      };
    });
    const {search} = await openSearch(page, '/account-management/billing?_highlight=invoice');
    await logged;
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Billing');
    await expect(page.locator('article mark')).toHaveCount(0);
    await search('refund');
  });
});

// Ranking and query parsing are the same at any width: run once, on one shared page.
test.describe('queries in the real box', {tag: '@viewport-independent'}, () => {
  let page: Page;
  let anchors: Anchors;
  let docs: BuiltDocs;
  // What the fixture checks on its own pages, and no dialog (a hostile query must never run script).
  const problems: string[] = [];
  let problemsOnLoad: string[];

  test.beforeAll(async ({browser}) => {
    page = await browser.newPage({baseURL});
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('dialog', async (dialog) => {
      problems.push(`unexpected dialog: ${dialog.message()}`);
      await dialog.dismiss();
    });
    // Opened with hostile _highlight parameters: the last test checks what they did to the page.
    const hostile = encodeURIComponent('<img src=x onerror=alert(1)>');
    await openSearch(page, `/basics/sdk?_highlight=${hostile}&_highlight=${'a'.repeat(2000)}`);
    problemsOnLoad = problems.splice(0);
    await instrumentSearch(page);
    anchors = loadHeadingAnchors();
    docs = new BuiltDocs(BUILD_DIR);
  });
  test.afterEach(() => expect(problems.splice(0), 'console errors, uncaught page errors and dialogs').toEqual([]));
  test.afterAll(() => page.close());

  // The held-out sets are frozen (never edited to fit the index); search_docs (MCP) must rank each query as the box.
  for (const name of Object.keys(QUERY_SETS) as QuerySetName[]) {
    const [hitAt3, mrr] = RELEVANCE_GOALS[name];
    test(`relevance, ${name} set: hit@3 ≥ ${hitAt3} and MRR ≥ ${mrr} in the real box, no empty list, and search_docs ranks each query alike`, async () => {
      test.setTimeout(180_000);
      const queries = loadQuerySet(name);
      const texts = queries.map(({query}) => query);
      const [answers, found] = await Promise.all([
        runQueriesInBox(page, texts, anchors),
        Promise.all(texts.map((query) => docs.search(query))),
      ]);
      const empty = queries.filter((_, index) => answers[index]!.length === 0).map(({query}) => query);
      expect(empty, 'queries with no result at all').toEqual([]);
      const relevance = scoreRelevance(queries.map((query, index) => ({query, hits: answers[index]!})));
      const misses = relevance.perQuery.filter((row) => row.rank === null || row.rank > 3);
      expect(relevance.hitAt3, `not in the top 3: ${JSON.stringify(misses, null, 1)}`).toBeGreaterThanOrEqual(hitAt3);
      expect(relevance.mrr).toBeGreaterThanOrEqual(mrr);
      // search_docs lists more hits, one per URL: both are compared over distinct pages, as many as the box shows.
      const inBox = answers.map((hits) => [...new Set(hits.map((hit) => hit.page))]);
      const inMcp = found.map((hits, index) =>
        [...new Set(hits.map(({url}) => new URL(url).pathname))].slice(0, inBox[index]!.length),
      );
      // The rank of the expected page in each (0: not listed).
      const ranks = (pages: (string | null)[][]) =>
        queries.map(({query, page}, index) => `${query}: ${pages[index]!.indexOf(page) + 1}`);
      expect(ranks(inMcp)).toEqual(ranks(inBox));
    });
  }

  // A changelog entry (front matter `news: true`) names a topic in few words: it would outscore the guide otherwise.
  test("a word the docs lack or a reader's word lists the page that answers it; the page about a topic comes first, before a news page or one that mentions it; in the box and in search_docs", async () => {
    const cases: [top: number, queries: string[], expected: string][] = [
      [3, ['invoices pdf', 'invoice'], '/account-management/billing#monthly-invoice'],
      [3, ['supported countries'], '/getting-started/main-concepts'],
      [3, ['topup', 'top up', 'top-up'], '/getting-started/main-concepts#adding-a-top-up'],
      [3, ['429', 'too many requests', 'rate limit'], '/getting-started/main-concepts#rate-limits'],
      [1, ['webhook signature'], '/getting-started/main-concepts'],
      [1, ['sandbox-fail-1gb-7d'], '/basics/test-in-postman'],
      [1, ['request an access token'], '/getting-started/authentication'],
      // The docs' tabs and SDK say JavaScript; readers say Node.
      [1, ['install node sdk', 'node sdk'], '/basics/sdk'],
      [1, ['get access token client credentials node'], '/getting-started/authentication'],
      // Words that name no topic ("values", "possible") do not let another section holding them all come first.
      [
        1,
        ['order status values', 'which order status values are possible'],
        '/getting-started/main-concepts#order-status',
      ],
      // …but the words headings use do ("Use the token").
      [1, ['use the token', 'how do i use the token'], '/getting-started/authentication#use-the-token'],
    ];
    const texts = cases.flatMap(([, queries]) => queries);
    const answers = await runQueriesInBox(page, texts, anchors);
    for (const [top, queries, expected] of cases) {
      // The first `top` hits, with the section only where one is expected.
      const shown = (urls: string[]) =>
        urls.slice(0, top).map((url) => (expected.includes('#') ? url : url.replace(/#.*/, '')));
      for (const query of queries) {
        const inBox = answers.shift()!.map((hit) => `${hit.page}${hit.section ?? ''}`);
        expect(shown(inBox), `box, top ${top}: ${query}`).toContain(expected);
        const found = (await docs.search(query, top)).map(({url}) => `${new URL(url).pathname}${new URL(url).hash}`);
        expect(shown(found), `search_docs, top ${top}: ${query}`).toContain(expected);
      }
    }
  });

  // The index holds words without the punctuation around them (lunr's trimmer); the box searches them so.
  test('a word wrapped in punctuation (a question mark, quotes, a Postman variable) finds what the bare word finds', async () => {
    const pairs = [
      ['token lifetime?', 'token lifetime'],
      ['"refund"', 'refund'],
      ['{{packageId}}', 'packageId'],
    ] as const;
    const answers = await runQueriesInBox(page, pairs.flat(), anchors);
    for (const [wrapped, bare] of pairs) {
      const found = answers.shift()!.map((hit) => hit.title);
      const expected = answers.shift()!.map((hit) => hit.title);
      expect(expected.length, `results for ${JSON.stringify(bare)}`).toBeGreaterThan(0);
      expect(found, JSON.stringify(wrapped)).toEqual(expected);
    }
  });

  // Speed is not timed here: `npm run bench:search` prints the time each of these queries takes.
  test('bad input: lunr syntax, emoji, RTL and HTML are searched within the bound, give results or "No results" and render as text', async () => {
    test.setTimeout(90_000);
    const {input, listbox} = searchBox(page);
    for (const query of HOSTILE_QUERIES) {
      await searchAfterSdk(page, anchors, query);
      // What is searched is within the bound that keeps lunr's work small.
      expect(boundQuery(query)).toEqual({query, cut: null});
      if ((await listbox.getByRole('option').count()) === 0) {
        await expect(listbox, JSON.stringify(query)).toContainText('No results');
      }
      await expect(listbox.locator('img, script, b, [onerror]')).toHaveCount(0);
      await expect(input).toHaveValue(query);
    }
  });

  test('bad input in the URL: a hostile _highlight parameter neither breaks the page nor injects markup', async () => {
    expect(problemsOnLoad, 'console errors, uncaught page errors and dialogs on loading').toEqual([]);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('SDK');
    await expect(page.locator('article img[src="x"]')).toHaveCount(0);
  });
});

test.describe('the index in parts', {tag: '@viewport-independent'}, () => {
  const PARTS = '**/assets/search-index/*.json';

  test('a first search downloads the index file and only the parts its words need; searched again, nothing more', async ({
    page,
  }) => {
    const fetched: string[] = [];
    page.on('response', (response) => {
      const {pathname} = new URL(response.url());
      if (/^\/(?:search-index[^/]*|assets\/search-index\/[^/]+)\.json$/.test(pathname)) fetched.push(pathname);
    });
    const {input, search} = await openSearch(page);
    await search('webhook signature');
    const files = searchIndexFiles();
    const size = new Map(files.map((file) => [`/${path.relative(BUILD_DIR, file)}`, gzipSize(file)]));
    const downloaded = [...new Set(fetched)].reduce((sum, pathname) => sum + size.get(pathname)!, 0);
    const whole = [...size.values()].reduce((sum, bytes) => sum + bytes, 0);
    const parts = new Set(fetched.filter((pathname) => pathname.startsWith('/assets/')));
    console.log(`first search: ${parts.size} of ${files.length - 1} parts, ${downloaded} of ${whole} B gzip`);
    expect(parts.size).toBeGreaterThan(0);
    expect(downloaded).toBeLessThan(whole / 2);
    const before = fetched.length;
    await input.fill('');
    await search('webhook signature');
    expect(fetched).toHaveLength(before);
  });

  // Every key searches and each answer is shown as it arrives: the page must end on the last query's.
  test('the search page typed into key by key shows the last query’s results, as the page opened with it does', async ({
    page,
  }) => {
    const query = 'webhook signature';
    const titles = async () => (await page.locator('article h2').allTextContents()).slice(0, 5);
    await openPage(page, `/search?q=${encodeURIComponent(query)}`);
    await expect(page.locator('article h2').nth(4)).toBeVisible();
    const expected = await titles();
    await openPage(page, '/search');
    // Each key once the page has put the query so far in its URL (it resets its input from the URL); the searches are
    // not waited for, so they overlap as a reader's do.
    for (let end = 1; end <= query.length; end++) {
      await page.locator('input[name="q"]').press(query[end - 1]!);
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(query.slice(0, end));
    }
    await expect(page.getByRole('heading', {name: `Search results for "${query}"`})).toBeVisible();
    await expect.poll(titles).toEqual(expected);
  });

  test.describe('when the parts cannot be loaded', () => {
    test.use({allowedConsoleErrors: /Failed to load resource/});

    test('the box still lists the matching page titles, and the page keeps working', async ({page}) => {
      await page.route(PARTS, (route) => route.abort('internetdisconnected'));
      const {search} = await openSearch(page);
      await search('billing');
      // Back online: the next search fetches the parts it could not.
      await page.unroute(PARTS);
      const retried = page.waitForResponse((response) => response.url().includes('/assets/search-index/'));
      await search('billings');
      expect((await retried).ok()).toBe(true);
      await page.keyboard.press('Enter');
      await expect(page).not.toHaveURL(/\/$/);
    });
  });
});

test('accessibility: the box, its hint and its results pass axe, in light and in dark mode', async ({
  page,
  isMobile,
}) => {
  for (const mode of ['light', 'dark'] as const) {
    // Init scripts run in the order they were added: the last one sets the mode.
    await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
    const {search} = await openSearch(page, '/basics/test-in-postman');
    await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
    // The keyboard hint is shown on a desktop only (a phone has no Ctrl or Cmd key).
    await expect(page.getByTestId('search-shortcut-hint')).toBeVisible({visible: !isMobile});
    // Only violations are read: axe then skips building a selector for every element that passes.
    const axe = async () =>
      (await axeBuilder(page))
        .include('.navbar [data-search-status]')
        .options({resultTypes: ['violations']})
        .analyze();
    expect((await axe()).violations, `${mode}, idle`).toEqual([]);
    await search('postman');
    await page.keyboard.press('ArrowDown');
    expect((await axe()).violations, `${mode}, results open`).toEqual([]);
  }
});
