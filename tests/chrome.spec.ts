import {ANNOUNCEMENT, BRAND, COPYRIGHT, EXTERNAL_LINKS, LOCALE} from '../src/constants/site';
import {expect, openPage, test} from './support/fixtures';

test.describe('navbar (spec §2, §4)', () => {
  // Desktop only: on a phone the navbar's items are in the menu (tests/mobile.mobile.spec.ts), the TOC collapsible.
  test(
    'skip to main content moves focus to the main content; the navbar is fixed at the top with the brand, external links on the left and toggle, language and search on the right; the table of contents lists h2 and h3 headings only',
    {tag: '@desktop-only'},
    async ({page}) => {
      await openPage(page, '/getting-started/main-concepts');
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', {name: 'Skip to main content'})).toBeFocused();
      await page.keyboard.press('Enter');
      // The link moves the keyboard's starting point to <main>: the next Tab stop is in the content, not the navbar.
      await page.keyboard.press('Tab');
      const focusIn = (selector: string) =>
        page.evaluate((within) => Boolean(document.activeElement?.closest(within)), selector);
      expect.soft(await focusIn('main'), 'focus in <main> after the skip link').toBe(true);
      expect.soft(await focusIn('.navbar, .theme-doc-sidebar-container'), 'focus in the navbar').toBe(false);

      const navbar = page.locator('nav.navbar');
      await expect(navbar).toHaveClass(/navbar--fixed-top/);
      expect(await navbar.evaluate((element) => getComputedStyle(element).position)).toMatch(/sticky|fixed/);
      const brand = navbar.locator('a.navbar__brand');
      await expect(brand).toHaveAttribute('href', '/');
      await expect(brand).toContainText(BRAND);
      await expect(brand.locator('img')).toHaveAttribute('alt', `${BRAND} logo`);
      await expect(brand.locator('img')).toHaveAttribute('src', /\.svg$/);
      const left = navbar.locator('.navbar__items:not(.navbar__items--right)');
      for (const link of Object.values(EXTERNAL_LINKS)) {
        const anchor = left.getByRole('link', {name: link.label});
        await expect(anchor).toHaveAttribute('href', link.href);
        await expect(anchor).toHaveAttribute('target', '_blank');
        await expect(anchor).toHaveAttribute('rel', /^(?=.*\bnoopener\b)(?=.*\bnoreferrer\b)/);
      }
      const right = navbar.locator('.navbar__items--right');
      await expect(right.getByRole('button', {name: /Switch between dark and light mode/})).toBeVisible();
      await expect(right.locator('.dropdown').getByRole('button', {name: LOCALE.label})).toBeVisible();
      await expect(right.getByPlaceholder(/^(Search|Loading\.\.\.)$/)).toBeVisible();

      const toc = page.locator('.theme-doc-toc-desktop');
      await expect(toc).toBeVisible();
      const tocTargets = await toc
        .locator('a')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')!.slice(1)));
      expect(tocTargets.length).toBeGreaterThan(2);
      const headingLevels = await page.evaluate(
        (ids) => ids.map((id) => document.getElementById(decodeURIComponent(id))?.tagName),
        tocTargets,
      );
      expect(new Set(headingLevels), 'the TOC lists h2 and h3').toEqual(new Set(['H2', 'H3']));
    },
  );

  test('hides on scroll down and reappears on scroll up; clicking the brand then returns to /', async ({page}) => {
    await openPage(page, '/getting-started/quick-start');
    const navbar = page.locator('nav.navbar');
    await page.mouse.move(600, 400);
    // The navbar reacts to the scroll direction between scroll events, so scroll in steps.
    for (const target of [300, 600, 900]) {
      await page.mouse.wheel(0, 300);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(target - 5);
    }
    await expect(navbar).toHaveClass(/navbarHidden/);
    await expect(navbar).not.toBeInViewport();
    await page.mouse.wheel(0, -200);
    await expect(navbar).not.toHaveClass(/navbarHidden/);
    // Wholly in view: a click computed while it still slides in would land where the brand no longer is.
    await expect(navbar).toBeInViewport({ratio: 1});
    // A phone's menu holds a second, hidden brand link: click the one shown.
    await page.locator('a.navbar__brand').filter({visible: true}).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Introduction');
  });

  // The desktop navbar's dropdown (a phone lists the items in its menu), on `/` with the bar dismissed under an old id.
  test(
    'a dismissed announcement bar with an older id is shown again (the id follows the text); the language dropdown lists English only, opens on click and closes on an outside click, opens with Enter and closes when focus moves elsewhere',
    {tag: '@desktop-only'},
    async ({page}) => {
      await page.addInitScript(() => {
        window.localStorage.setItem('docusaurus.announcement.dismiss', 'true');
        window.localStorage.setItem('docusaurus.announcement.id', 'announcement-of-an-older-text');
      });
      await openPage(page, '/');
      await expect(page.locator('div[role="banner"]'), 'the announcement bar').toBeVisible();

      const dropdown = page.locator('.navbar__items--right .dropdown');
      const toggle = dropdown.getByRole('button', {name: LOCALE.label});
      const menu = dropdown.locator('.dropdown__menu');
      await expect(menu).toBeHidden();
      await toggle.click();
      await expect(menu).toBeVisible();
      const items = menu.locator('a');
      await expect(items).toHaveCount(1);
      await expect(items.first()).toHaveText(LOCALE.label);
      await expect(items.first()).toHaveAttribute('lang', LOCALE.htmlLang);
      await page.locator('main').click({position: {x: 5, y: 5}});
      await expect(menu).toBeHidden();

      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(dropdown).toHaveClass(/dropdown--show/);
      await page.locator('a.navbar__brand').focus();
      await expect(dropdown).not.toHaveClass(/dropdown--show/);
    },
  );

  test('language dropdown closes on an outside touch', {tag: '@desktop-only'}, async ({browser}) => {
    const context = await browser.newContext({hasTouch: true, viewport: {width: 1280, height: 800}});
    const page = await context.newPage();
    await openPage(page, '/');
    const dropdown = page.locator('.navbar__items--right .dropdown');
    await dropdown.getByRole('button', {name: LOCALE.label}).focus();
    await page.keyboard.press('Enter');
    await expect(dropdown).toHaveClass(/dropdown--show/);
    await page.evaluate(() => {
      const target = document.querySelector('main')!;
      const touch = new Touch({identifier: 1, target, clientX: 400, clientY: 400});
      target.dispatchEvent(new TouchEvent('touchstart', {touches: [touch], bubbles: true}));
    });
    await expect(dropdown).not.toHaveClass(/dropdown--show/);
    await context.close();
  });
});

// The head: tests/routes.spec.ts on every page. A bar stored dismissed stays so: tests/first-paint.spec.ts.
test('the announcement bar links to the Changelog, whose footer shows the 2025 copyright and no links; the bar closes and its dismissal is stored under its id', async ({
  page,
}) => {
  await openPage(page, '/basics/sdk');
  const bar = page.locator('div[role="banner"]');
  await expect(bar).toBeVisible();
  await bar.getByRole('link', {name: /changelog/i}).click();
  await expect(page).toHaveURL('/additional/changelog');
  await expect(page.getByRole('heading', {level: 1})).toHaveText('Changelog');
  const footer = page.locator('footer.footer');
  await expect.soft(footer).toHaveText(COPYRIGHT);
  await expect.soft(footer).toContainText('2025');
  await expect.soft(footer.locator('a'), 'links in the footer').toHaveCount(0);
  // The link was followed client-side: the bar is still the same element.
  await expect(bar).toBeVisible();
  await bar.getByRole('button', {name: 'Close'}).click();
  await expect(bar).toHaveCount(0);
  const stored = page.evaluate(() =>
    ['dismiss', 'id'].map((key) => localStorage.getItem(`docusaurus.announcement.${key}`)),
  );
  expect(await stored, 'dismissal and id stored').toEqual(['true', ANNOUNCEMENT.id]);
});
