import {readFileSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {ANNOUNCEMENT} from '../src/constants/site';
import {docRoutes, htmlFile} from './support/docs';
import {test as base, expect, openPage, waitForHydration} from './support/fixtures';
import {afterFrames, LIGHTHOUSE_DESKTOP, layoutShifts, recordLayoutShifts} from './support/layout-shifts';

/** Where to cut a page's HTML: an index into it. */
type Cut = (html: string) => number;

const test = base.extend<{stall: (route: string, splitAt: Cut) => Promise<() => void>}>({
  // Opens `route` through a loopback proxy that holds its HTML from `splitAt(html)` on (a stalled connection) until
  // the first paint; answers what lets the rest in. Everything else passes through.
  stall: async ({page, baseURL}, use) => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let splitAt: Cut = () => -1;
    const server = createServer((request, response) => {
      (async () => {
        const answer = await fetch(new URL(request.url ?? '/', baseURL), {headers: {'accept-encoding': 'identity'}});
        const type = answer.headers.get('content-type') ?? 'application/octet-stream';
        const body = Buffer.from(await answer.arrayBuffer());
        response.writeHead(answer.status, {'content-type': type, 'cache-control': 'no-store'});
        if (!type.startsWith('text/html')) return response.end(body);
        const html = body.toString('utf8');
        const cut = splitAt(html);
        if (!(cut > 0 && cut < html.length))
          throw new Error(`cut ${cut} is not inside the page (${html.length} chars)`);
        response.write(html.slice(0, cut));
        await released;
        response.end(html.slice(cut));
      })().catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await use(async (route, cut) => {
      splitAt = cut;
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}${route}`, {waitUntil: 'commit'});
      await page.waitForFunction(() =>
        performance.getEntriesByType('paint').some((entry) => entry.name === 'first-paint'),
      );
      return release;
    });
    release();
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  },
});

// A stalled page is painted as far as it arrived: none waits for an element that may never come (404, search).
for (const route of ['/getting-started/main-concepts', '/search', '/this-page-does-not-exist']) {
  test.describe(route, () => {
    // A missing page is answered 404, which Chromium logs.
    test.use({allowedConsoleErrors: route === '/this-page-does-not-exist' ? /status of 404/ : undefined});
    test(`${route}, its HTML stalled mid-navbar, paints the navbar that arrived, then the rest once it comes`, async ({
      page,
      stall,
    }) => {
      const release = await stall(route, (html) => html.indexOf('navbar__search'));
      await expect(page.locator('nav.navbar .navbar__brand')).toBeVisible();
      await expect(page.locator('footer')).toHaveCount(0);
      release();
      await expect(page.locator('footer')).toBeAttached();
    });
  });
}

/** Where the Markdown actions' row is cut, from where it starts. */
const inActions =
  (cut: (html: string, actions: number) => number): Cut =>
  (html) => {
    const actions = html.indexOf('page-markdown-actions');
    return actions < 0 ? -1 : cut(html, actions);
  };

// Columns are sized by all rows: painted with its first rows, a table moves them as others come. </table> is kept.
function secondBodyRow(html: string): number {
  let table = html.indexOf('<table', html.indexOf('<article'));
  for (; table > 0; table = html.indexOf('<table', table + 1)) {
    const end = html.indexOf('</table>', table);
    const second = html.indexOf('<tr', html.indexOf('<tr', html.indexOf('<tbody', table)) + 1);
    if (second > 0 && second < end) return second;
  }
  return -1;
}

// What is painted while the rest arrives must not move as it comes. Each case: where the page is cut, what is painted
// by then, the shifts that count. At Lighthouse's desktop size; the bar at each project's width (its columns differ).
const CASES: {what: string; splitAt: Cut; painted: string; route?: string; mentioning?: string; bothWidths?: true}[] = [
  {
    what: "the navbar's right-hand group does not shift as its last items arrive (cut after its first item)",
    splitAt: (html) => html.indexOf('navbarSearchContainer'),
    painted: '.navbar__items--right .dropdown',
    mentioning: 'navbar',
  },
  {
    what: "the breadcrumbs' separator does not shift as the text of the item before it arrives",
    splitAt: (html) => {
      const label = /<span class="?breadcrumbs__link"?>/.exec(html);
      return label ? label.index + label[0].length + 1 : -1;
    },
    painted: '.breadcrumbs__item >> nth=1',
  },
  {
    what: 'the Copy button above the title does not shift as the rest of the row arrives, the page stalled before the link beside it',
    splitAt: inActions((html, actions) => html.indexOf('</button>', actions) + '</button>'.length),
    painted: '.page-markdown-actions button',
  },
  {
    what: 'the Copy button above the title does not shift as the rest of the row arrives, the page stalled inside the link, before its text',
    splitAt: inActions((html, actions) => html.indexOf('View as Markdown', actions)),
    painted: '.page-markdown-actions button',
  },
  {
    what: 'the rows of a table already painted do not shift as the rest of the table arrives',
    splitAt: secondBodyRow,
    painted: 'article table tbody tr >> nth=0',
    // The page whose article reaches a table of two or more body rows soonest.
    route: docRoutes()
      .map((route) => ({route, cut: secondBodyRow(readFileSync(htmlFile(route), 'utf8'))}))
      .filter(({cut}) => cut > 0)
      .sort((a, b) => a.cut - b.cut)[0]?.route,
  },
  {
    what: 'the announcement bar painted before its close button: the message does not shift as the button arrives',
    splitAt: (html) => html.lastIndexOf('<button', html.indexOf('announcementBarClose')),
    painted: '.announcement-bar [role=banner] > div >> nth=1',
    bothWidths: true,
  },
];

for (const {what, splitAt, painted, route = '/getting-started/quick-start', mentioning, bothWidths} of CASES) {
  test(
    `${route} completed after a first paint: ${what}`,
    {tag: bothWidths ? [] : ['@desktop-only']},
    async ({page, stall}) => {
      // A case whose page is not found falls back to Quick start, and fails here.
      expect(splitAt(readFileSync(htmlFile(route), 'utf8')), `the cut in ${route}`).toBeGreaterThan(0);
      if (!bothWidths) await page.setViewportSize(LIGHTHOUSE_DESKTOP);
      await recordLayoutShifts(page);
      const release = await stall(route, splitAt);
      await expect(page.locator(painted)).toBeAttached();
      release();
      await expect(page.locator(painted)).toBeVisible();
      await expect(page.locator('footer')).toBeAttached();
      await waitForHydration(page);
      const counted = (await layoutShifts(page)).filter(
        ({sources}) => !mentioning || sources.some((source) => source.includes(mentioning)),
      );
      expect(counted, 'layout shifts').toEqual([]);
    },
  );
}

// The column rule must not undo the theme's hiding (a dismissed bar shown, then gone on hydration, moves the page).
const PRINTED = '/getting-started/quick-start';
test(`${PRINTED} printed leaves the announcement bar out; a dismissed bar is never painted and nothing moves as the page hydrates`, async ({
  page,
}) => {
  const bar = page.locator('.announcement-bar [role=banner]');
  await openPage(page, PRINTED);
  await page.emulateMedia({media: 'print'});
  await expect(bar).toBeHidden();
  await page.emulateMedia({media: 'screen'});
  await expect(bar).toBeVisible();
  await page.addInitScript((id) => {
    localStorage.setItem('docusaurus.announcement.dismiss', 'true');
    localStorage.setItem('docusaurus.announcement.id', id);
  }, ANNOUNCEMENT.id);
  await recordLayoutShifts(page);
  await page.reload();
  await waitForHydration(page);
  await afterFrames(page, 2);
  await expect(bar).toHaveCount(0);
  expect(await layoutShifts(page)).toEqual([]);
});
