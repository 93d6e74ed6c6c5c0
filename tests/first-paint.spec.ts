import {expect, openPage, test, waitForHydration} from './support/fixtures';
import {startStallingProxy} from './support/stalling-proxy';
import type {Page} from '@playwright/test';
import {afterFrames, LIGHTHOUSE_DESKTOP, layoutShifts, recordLayoutShifts, type Shift} from './support/layout-shifts';
import {ANNOUNCEMENT} from '../src/constants/site';
import {docRoutes, htmlFile} from './support/docs';
import {readFileSync} from 'node:fs';

// A connection that stalls mid-page must not leave the reader a blank screen: the browser paints what has arrived.
// No page waits for an element before its first paint (one that may never arrive: a dropped connection, a page
// without it such as 404 or search).
const PAGES = [
  {route: '/getting-started/main-concepts', cut: 'navbar__search'},
  {route: '/search', cut: 'navbar__search'},
  {route: '/this-page-does-not-exist', cut: 'navbar__search', answers404: true},
];

for (const {route, cut, answers404} of PAGES) {
  test.describe(route, () => {
    // A missing page is answered 404, which Chromium logs.
    test.use({allowedConsoleErrors: answers404 ? /status of 404/ : undefined});
    test(`${route}, its HTML stalled mid-navbar, paints the navbar that arrived, then the rest once it comes`, async ({
      page,
      baseURL,
    }) => {
      const proxy = await startStallingProxy({upstream: baseURL!, splitAt: (html) => html.indexOf(cut)});
      try {
        await page.goto(proxy.origin + route, {waitUntil: 'commit'});
        // The first paint happens while the rest of the page is still held back.
        await page.waitForFunction(() =>
          performance.getEntriesByType('paint').some((entry) => entry.name === 'first-paint'),
        );
        await expect(page.locator('nav.navbar .navbar__brand')).toBeVisible();
        await expect(page.locator('footer')).toHaveCount(0);
        proxy.release();
        await expect(page.locator('footer')).toBeAttached();
      } finally {
        await proxy.close();
      }
    });
  });
}

/**
 * Loads `route` (Quick start unless told) with its HTML held at `splitAt` until the first paint (with `heldBack`, the
 * part already arrived, in the page), then lets the rest in; answers the layout shifts once the page has hydrated.
 */
async function shiftsAfterStalledPaint(
  page: Page,
  upstream: string,
  splitAt: (html: string) => number,
  heldBack: string,
  route = '/getting-started/quick-start',
): Promise<Shift[]> {
  const proxy = await startStallingProxy({upstream, splitAt});
  try {
    await recordLayoutShifts(page);
    await page.goto(proxy.origin + route, {waitUntil: 'commit'});
    await page.waitForFunction(() =>
      performance.getEntriesByType('paint').some((entry) => entry.name === 'first-paint'),
    );
    await expect(page.locator(heldBack)).toBeAttached();
    proxy.release();
    await expect(page.locator(heldBack)).toBeVisible();
    await expect(page.locator('footer')).toBeAttached();
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    return await layoutShifts(page);
  } finally {
    await proxy.close();
  }
}

// A page painted while its navbar is still arriving (a slow connection, a busy phone) must not move what it painted:
// the right-hand group is cut after its first item, as the parser may leave it, then completed.
// At Lighthouse's desktop size, the desktop navbar: the phone's run would lay out the same page.
test.describe('navbar completed after a first paint', {tag: '@desktop-only'}, () => {
  test.use({viewport: LIGHTHOUSE_DESKTOP});
  test('the right-hand group does not shift as its last items arrive', async ({page, baseURL}) => {
    const shifts = await shiftsAfterStalledPaint(
      page,
      baseURL!,
      (html) => html.indexOf('navbarSearchContainer'),
      '.navbar__items--right .dropdown',
    );
    expect(shifts.filter((shift) => shift.sources.some((source) => source.includes('navbar')))).toEqual([]);
  });
});

// The same for the Markdown actions above every title: painted after the Copy button arrived and before the link
// beside it, or before the link's text, nothing may move as the rest arrives.
// At Lighthouse's desktop size: the phone's run would lay out the same page.
test.describe('Markdown actions completed after a first paint', {tag: '@desktop-only'}, () => {
  test.use({viewport: LIGHTHOUSE_DESKTOP});
  const CUTS: {where: string; cut: (html: string, actions: number) => number}[] = [
    {
      where: 'before the link beside it',
      cut: (html, actions) => html.indexOf('</button>', actions) + '</button>'.length,
    },
    {where: 'inside the link, before its text', cut: (html, actions) => html.indexOf('View as Markdown', actions)},
  ];
  for (const {where, cut} of CUTS) {
    test(`the Copy button does not shift as the rest of the row arrives, the page stalled ${where}`, async ({
      page,
      baseURL,
    }) => {
      const splitAt = (html: string) => {
        const actions = html.indexOf('page-markdown-actions');
        return actions < 0 ? -1 : cut(html, actions);
      };
      expect(splitAt(readFileSync(htmlFile('/getting-started/quick-start'), 'utf8')), 'the cut').toBeGreaterThan(0);
      const shifts = await shiftsAfterStalledPaint(page, baseURL!, splitAt, '.page-markdown-actions button');
      expect(shifts).toEqual([]);
    });
  }
});

// The announcement bar painted before its close button arrived: the message must not move as the button comes.
// Run at each project's own width (a desktop's columns, a phone's narrower ones).
test.describe('announcement bar completed after a first paint', () => {
  test('the message does not shift as the close button arrives', async ({page, baseURL}) => {
    const splitAt = (html: string) => html.lastIndexOf('<button', html.indexOf('announcementBarClose'));
    expect(splitAt(readFileSync(htmlFile('/getting-started/quick-start'), 'utf8')), 'the cut').toBeGreaterThan(0);
    const shifts = await shiftsAfterStalledPaint(
      page,
      baseURL!,
      splitAt,
      '.announcement-bar [role=banner] > div >> nth=1',
    );
    expect(shifts).toEqual([]);
  });

  // The column rule must not undo the theme's hiding: a printed page has no bar, and a reader who dismissed it never
  // sees it (it would show, then vanish on hydration, moving the whole page).
  test('print leaves the bar out; a dismissed bar is never painted and nothing moves as the page hydrates', async ({
    page,
  }) => {
    const bar = page.locator('.announcement-bar [role=banner]');
    await openPage(page, '/getting-started/quick-start');
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
});

// A table's columns are sized by all its rows: painted with only its first rows, it would move them as the others
// arrive. The page whose article reaches a table of two or more body rows soonest (in view at its first paint) is cut
// where that table's second body row starts (the built HTML leaves out end tags, but never </table>).
function secondBodyRow(html: string): number {
  for (
    let table = html.indexOf('<table', html.indexOf('<article'));
    table > 0;
    table = html.indexOf('<table', table + 1)
  ) {
    const end = html.indexOf('</table>', table);
    const second = html.indexOf('<tr', html.indexOf('<tr', html.indexOf('<tbody', table)) + 1);
    if (second > 0 && second < end) return second;
  }
  return -1;
}

// At Lighthouse's desktop size: the phone's run would lay out the same page.
test.describe('table completed after a first paint', {tag: '@desktop-only'}, () => {
  test.use({viewport: LIGHTHOUSE_DESKTOP});
  test('the rows already painted do not shift as the rest of the table arrives', async ({page, baseURL}) => {
    const [route] = docRoutes()
      .map((candidate) => ({route: candidate, cut: secondBodyRow(readFileSync(htmlFile(candidate), 'utf8'))}))
      .filter(({cut}) => cut > 0)
      .sort((a, b) => a.cut - b.cut)
      .map(({route}) => route);
    expect(route, 'a page with a table of two rows').toBeDefined();
    const shifts = await shiftsAfterStalledPaint(
      page,
      baseURL!,
      secondBodyRow,
      'article table tbody tr >> nth=0',
      route,
    );
    expect(shifts).toEqual([]);
  });
});
