// "Copy page as Markdown" and "View as Markdown" on every doc (src/components/PageMarkdownActions), in the build.
import {spawn} from 'node:child_process';
import path from 'node:path';

import type {Locator, Page, Response} from '@playwright/test';

import {freePort} from '../lib/ports';
import {axeBuilder} from './support/axe';
import {expect, openPage, test} from './support/fixtures';

const ROOT = path.resolve(__dirname, '..');
const PAGE = '/getting-started/quick-start';
const TWIN = '/getting-started/quick-start.md';
const ACTIONS = '.page-markdown-actions';
const copyButton = (page: Page) => page.locator(ACTIONS).getByRole('button', {name: 'Copy page as Markdown'});
const viewLink = (page: Page) => page.locator(ACTIONS).getByRole('link', {name: 'View as Markdown'});
/** The button, whatever it reads now, has this name. */
const expectButtonName = (page: Page, name: string) =>
  expect(page.locator(ACTIONS).getByRole('button')).toHaveAccessibleName(name);
const boxOf = async (locator: Locator) => (await locator.boundingBox())!;
const middle = (box: {y: number; height: number}) => box.y + box.height / 2;
const title = (page: Page) => page.getByRole('heading', {level: 1});
const axeViolations = async (page: Page) =>
  (await (await axeBuilder(page)).include(ACTIONS).analyze()).violations.map((violation) => violation.id);

test.describe('page Markdown actions', () => {
  test.use({permissions: ['clipboard-read', 'clipboard-write']});

  test.describe(() => {
    // The failure is a 503 answer to the twin.
    test.use({allowedConsoleErrors: /status of 503/});
    test("are on every doc, before the title, linking to its twin; copy puts the page Markdown on the clipboard and says so, with no layout shift (the server HTML holds them at their final size); both share one row at the project's width and at 320 px, the button keeps its whole name; a twin that cannot be loaded makes the button say so; axe passes in light mode, idle, copied and failed", async ({
      browser,
      page,
    }) => {
      const staticPage = await browser.newPage({javaScriptEnabled: false});
      await staticPage.goto(PAGE);
      const serverTitle = await boxOf(title(staticPage));
      const serverButton = await boxOf(staticPage.locator(`${ACTIONS} button`));
      await staticPage.close();

      await page.addInitScript(() => window.localStorage.setItem('theme', 'light'));
      for (const [path, twin] of Object.entries({'/': '/index.md', [PAGE]: TWIN})) {
        await openPage(page, path);
        await expect(viewLink(page), path).toHaveAttribute('href', twin);
        await expect(copyButton(page), path).toBeVisible();
        const actionsBox = await boxOf(page.locator(ACTIONS));
        expect(actionsBox.y + actionsBox.height, `${path}: actions above the title`).toBeLessThanOrEqual(
          (await boxOf(title(page))).y,
        );
      }
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
      const [titleBox, button] = [await boxOf(title(page)), await boxOf(copyButton(page))];
      expect(titleBox.y, 'title where the server HTML puts it').toBeCloseTo(serverTitle.y, 0);
      expect(button, 'button as the server HTML sizes it').toEqual(serverButton);
      expect(await axeViolations(page), 'axe, idle').toEqual([]);

      const twin = await (await page.request.get(TWIN)).text();
      await copyButton(page).click();
      await expectButtonName(page, 'Copied');
      await expect(page.locator(ACTIONS).getByRole('status')).toHaveText(/Copied the page as Markdown/);
      expect(await page.evaluate(() => navigator.clipboard.readText()), 'the clipboard holds the twin').toBe(twin);
      expect(twin.startsWith('# Quick start\n')).toBe(true);
      expect(await page.locator(`${ACTIONS} button`).boundingBox(), 'button size when copied').toEqual(button);
      expect((await boxOf(title(page))).y, 'title after the copy').toBe(titleBox.y);
      // Again, for axe to read the state as soon as it shows (it reverts after a moment).
      await page.locator(`${ACTIONS} button`).click();
      await expectButtonName(page, 'Copied');
      expect(await axeViolations(page), 'axe, copied').toEqual([]);
      // Back to its label after a moment.
      await expect(copyButton(page)).toBeVisible({timeout: 5_000});

      const projectWidth = page.viewportSize()!.width;
      for (const width of [320, projectWidth]) {
        await page.setViewportSize({width, height: page.viewportSize()!.height});
        const [button, link] = [await boxOf(copyButton(page)), await boxOf(viewLink(page))];
        expect(Math.abs(middle(button) - middle(link)), `${width} px: one row`).toBeLessThanOrEqual(1);
        expect(button.x + button.width, `${width} px: the button before the link`).toBeLessThanOrEqual(link.x);
        await expect(copyButton(page), `${width} px`).toHaveAccessibleName('Copy page as Markdown');
      }

      await page.route('**/*.md', (route) => route.fulfill({status: 503, body: 'down'}));
      await copyButton(page).click();
      await expectButtonName(page, 'Copy failed');
      const status = page.locator(ACTIONS).getByRole('status');
      await expect(status).toBeVisible();
      await expect(status).toHaveText(/Could not copy the page\. Open “View as Markdown”/);
      expect(await axeViolations(page), 'axe, failed').toEqual([]);
    });
  });

  test('pass axe in dark mode, idle and copied', async ({page}) => {
    await page.addInitScript(() => window.localStorage.setItem('theme', 'dark'));
    await openPage(page, PAGE);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await axeViolations(page), 'idle').toEqual([]);
    await copyButton(page).click();
    await expectButtonName(page, 'Copied');
    expect(await axeViolations(page), 'copied').toEqual([]);
  });

  test(
    'keyboard: Tab reaches the button with a visible focus ring, Enter copies, Tab then Enter opens the .md twin, served as Markdown',
    {tag: '@desktop-only'},
    async ({page}) => {
      const responses: Response[] = [];
      page.on('response', (response) => responses.push(response));
      await openPage(page, PAGE);
      let reached = false;
      for (let presses = 0; presses < 80 && !reached; presses += 1) {
        await page.keyboard.press('Tab');
        reached = await copyButton(page).evaluate((element) => element === document.activeElement);
      }
      expect(reached).toBe(true);
      const outline = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).outlineStyle);
      expect(await outline(copyButton(page))).not.toBe('none');
      await page.keyboard.press('Enter');
      await expectButtonName(page, 'Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^# Quick start\n/);
      await page.keyboard.press('Tab');
      await expect(viewLink(page)).toBeFocused();
      expect(await outline(viewLink(page))).not.toBe('none');
      const [response] = await Promise.all([
        page.waitForResponse((res) => res.request().isNavigationRequest() && res.url().endsWith(TWIN)),
        page.keyboard.press('Enter'),
      ]);
      await page.waitForURL(`**${TWIN}`);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toMatch(/^text\/markdown/);
      expect(await response.text()).toMatch(
        /^# Quick start\n\nURL: https:\/\/docs\.example\.com\/getting-started\/quick-start\n/,
      );
      await page.waitForLoadState('load');
      expect(responses.filter((res) => res.status() === 404).map((res) => res.url())).toEqual([]);
    },
  );
});

// `npm start` has no Markdown twins (written from the build's HTML): no actions rather than a link to a 404.
test('under the dev server (npm start) the actions are not offered', {tag: '@viewport-independent'}, async ({page}) => {
  test.setTimeout(240_000);
  const port = await freePort();
  const env = {...process.env, BROWSER: 'none', DOCUSAURUS_GENERATED_FILES_DIR_NAME: '.docusaurus-dev-test'};
  const args = ['start', '--host', '127.0.0.1', '--port', String(port), '--no-open'];
  const server = spawn(path.join(ROOT, 'node_modules/.bin/docusaurus'), args, {cwd: ROOT, env, detached: true});
  try {
    const origin = `http://127.0.0.1:${port}`;
    await expect
      .poll(async () => (await fetch(origin).catch(() => undefined))?.status, {timeout: 180_000, intervals: [1_000]})
      .toBe(200);
    await page.goto(`${origin}${PAGE}`);
    await expect(title(page)).toBeVisible();
    await expect(page.locator(ACTIONS)).toHaveCount(0);
    await expect(page.getByRole('link', {name: 'View as Markdown'})).toHaveCount(0);
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
  }
});
