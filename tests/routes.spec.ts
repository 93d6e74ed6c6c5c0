import {readFileSync} from 'node:fs';
import type {Page} from '@playwright/test';
import {SITE} from '../src/constants/site';
import {builtSidebar, docPages, docRoutes, htmlFile} from './support/docs';
import {expect, openPage, test} from './support/fixtures';
import {seriousAxeViolations} from './support/axe';
import {afterFrames, LIGHTHOUSE_DESKTOP, layoutShifts, recordLayoutShifts} from './support/layout-shifts';

// Spec §2's route table, grouped and ordered as its sidebar: the expectation for the eleven pages it
// names. The pages themselves come from the build, so a page added later is checked by the same rules.
const SPEC_SIDEBAR: ReadonlyArray<{label: string; pages: ReadonlyArray<readonly [path: string, title: string]>}> = [
  {
    label: 'Getting started',
    pages: [
      ['/', 'Introduction'],
      ['/getting-started/quick-start', 'Quick start'],
      ['/getting-started/main-concepts', 'Main concepts'],
      ['/getting-started/authentication', 'Authentication'],
    ],
  },
  {
    label: 'Basics',
    pages: [
      ['/basics/sdk', 'SDK'],
      ['/basics/iframe', 'Iframe'],
      ['/basics/test-in-postman', 'Test in Postman'],
    ],
  },
  {
    label: 'Account management',
    pages: [
      ['/account-management/dashboard', 'Dashboard'],
      ['/account-management/billing', 'Billing'],
    ],
  },
  {
    label: 'Additional',
    pages: [
      ['/additional/changelog', 'Changelog'],
      ['/additional/contact-and-help-center', 'Contact and help center'],
    ],
  },
];
const SPEC_TITLES = new Map(SPEC_SIDEBAR.flatMap((category) => category.pages));

/** Whether `part` appears in `whole` in the same order (other items may come between). */
const inOrder = <T>(part: readonly T[], whole: readonly T[]) => {
  let at = 0;
  for (const item of whole) if (item === part[at]) at += 1;
  return at === part.length;
};

const PAGES = docPages();
/** Every doc in sidebar order: the order the pagination links chain them in. */
const SIDEBAR_ORDER = builtSidebar().flatMap((group) => group.pages.map((entry) => entry.path));

/** The head the open page ends with (after hydration). */
function readHead(page: Page) {
  return page.evaluate(() => {
    const meta = (selector: string) => document.head.querySelector(selector)?.getAttribute('content') ?? null;
    return {
      title: document.title,
      lang: document.documentElement.getAttribute('lang'),
      dir: document.documentElement.getAttribute('dir'),
      description: meta('meta[name="description"]'),
      canonical:
        document.head.querySelectorAll('link[rel="canonical"]').length === 1
          ? (document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null)
          : 'not exactly one',
      ogTitle: meta('meta[property="og:title"]'),
      ogDescription: meta('meta[property="og:description"]'),
      ogUrl: meta('meta[property="og:url"]'),
      ogImage: meta('meta[property="og:image"]'),
      twitterCard: meta('meta[name="twitter:card"]'),
      twitterImage: meta('meta[name="twitter:image"]'),
      robots: meta('meta[name="robots"]'),
      favicon: document.head.querySelector('link[rel="icon"]')?.getAttribute('href') ?? null,
    };
  });
}

/** Duplicate ids on the open page, and url(#id) references of an inline SVG that point outside it. */
function idProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const seen = new Set<string>();
    for (const element of Array.from(document.querySelectorAll('[id]'))) {
      if (seen.has(element.id)) found.push(`duplicate id "${element.id}"`);
      seen.add(element.id);
    }
    for (const svg of Array.from(document.querySelectorAll('svg'))) {
      for (const element of Array.from(svg.querySelectorAll('*'))) {
        for (const attribute of Array.from(element.attributes)) {
          for (const [, id] of attribute.value.matchAll(/url\(#([^)]+)\)/g)) {
            if (!svg.querySelector(`[id="${id}"]`))
              found.push(`${attribute.name}="${attribute.value}" points outside its <svg>`);
          }
        }
      }
    }
    return found;
  });
}

test.describe('the documentation routes (spec §2)', () => {
  test('the build has every page of the spec', {tag: '@viewport-independent'}, () => {
    expect(
      docRoutes()
        .filter((path) => SPEC_TITLES.has(path))
        .sort(),
    ).toEqual([...SPEC_TITLES.keys()].sort());
  });

  // Each page is loaded once, and every check that reads a freshly loaded page runs on that load: they are
  // independent of each other, and a load costs more than all of them but axe. Soft expectations, so one
  // failing check does not hide the others.
  for (const doc of PAGES) {
    test(`${doc.path} renders "${doc.title}" with its title, head tags, active sidebar link and pagination links, unique ids, no layout shift while it loads, no sideways scrolling on a phone and no serious axe violation in light mode (and of the colour rules in dark mode on a desktop)`, async ({
      page,
      isMobile,
    }) => {
      // axe walks every node of the longest reference pages, twice on a desktop: give it room on a busy machine.
      test.setTimeout(240_000);
      if (!isMobile) {
        // Lighthouse's desktop run (the phone keeps its own screen, as Lighthouse's mobile run).
        await page.setViewportSize(LIGHTHOUSE_DESKTOP);
      }
      await recordLayoutShifts(page);
      const response = await openPage(page, doc.path);
      // Two frames after hydration: what hydration changes has been laid out by then.
      await afterFrames(page, 2);

      await test.step('no layout shift while it loads and hydrates (Lighthouse CLS 0)', async () => {
        expect.soft(await layoutShifts(page)).toEqual([]);
      });

      await test.step('title, description, first paragraph, sections and active sidebar link (spec §2)', async () => {
        if (SPEC_TITLES.has(doc.path)) {
          expect.soft(doc.title, 'the title of spec §2').toBe(SPEC_TITLES.get(doc.path));
        }
        expect.soft(doc.title).not.toBe('');
        expect.soft(response?.status()).toBe(200);
        await expect.soft(page.getByRole('heading', {level: 1})).toHaveText(doc.title);
        await expect.soft(page).toHaveTitle(`${doc.title} | ${SITE.title}`);
        const description = await page.locator('meta[name="description"]').getAttribute('content');
        expect.soft(description?.length ?? 0).toBeGreaterThan(40);
        const activeLink = page.locator('.theme-doc-sidebar-menu a.menu__link[aria-current="page"]');
        await expect.soft(activeLink).toHaveText(doc.title);
        await expect.soft(activeLink).toHaveAttribute('href', doc.path);
        // Every page opens with a paragraph and has at least three h2 sections.
        await expect.soft(page.locator('.theme-doc-markdown > p').first()).not.toBeEmpty();
        expect.soft(await page.locator('.theme-doc-markdown h2').count()).toBeGreaterThanOrEqual(3);
      });

      // In the browser, after hydration: the head the page ends with, not only the one the server sent.
      await test.step('head: title, description, canonical, Open Graph, Twitter, favicon, lang and dir', async () => {
        const head = await readHead(page);
        const absolute = `${SITE.url}${doc.path}`;
        // Spec §1: English, left-to-right.
        expect.soft(head.lang).toBe('en');
        expect.soft(head.dir).toBe('ltr');
        expect.soft(head.canonical).toBe(absolute);
        expect.soft(head.ogUrl).toBe(absolute);
        expect.soft(head.ogTitle).toBe(head.title);
        expect.soft(head.description?.length ?? 0).toBeGreaterThan(50);
        expect.soft(head.ogDescription).toBe(head.description);
        expect.soft(head.ogImage).toBe(`${SITE.url}/img/social-card.png`);
        expect.soft(head.twitterImage).toBe(head.ogImage);
        expect.soft(head.twitterCard).toBe('summary_large_image');
        expect.soft(head.robots).toBeNull();
        expect.soft(head.favicon).toMatch(/favicon\.svg$/);
      });

      await test.step('pagination links to the previous and next doc in sidebar order (none off the sidebar); the docs version and, on `/`, the Introduction doc in the html classes', async () => {
        const at = SIDEBAR_ORDER.indexOf(doc.path);
        const [previous, next] = at < 0 ? [] : [SIDEBAR_ORDER[at - 1], SIDEBAR_ORDER[at + 1]];
        for (const [link, neighbour] of [
          ['.pagination-nav__link--prev', previous],
          ['.pagination-nav__link--next', next],
        ] as const) {
          if (neighbour) await expect.soft(page.locator(link)).toHaveAttribute('href', neighbour);
          else await expect.soft(page.locator(link)).toHaveCount(0);
        }
        await expect.soft(page.locator('html')).toHaveClass(/docs-version-current/);
        if (doc.path === '/') {
          await expect.soft(page.locator('html')).toHaveClass(/docs-doc-id-getting-started\/introduction/);
        }
      });

      await test.step('every id is unique, and every url(#id) an inline SVG uses resolves inside that SVG', async () => {
        expect.soft(await idProblems(page)).toEqual([]);
      });

      if (isMobile) {
        await test.step('no sideways scrolling on a phone', async () => {
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect.soft(overflow, `${doc.path} scrolls sideways`).toBeLessThanOrEqual(0);
        });
      }

      // Last: axe lifts the code blocks' shade while it reads the page. No colour rule of the site's CSS depends on
      // the width, but what is shown does: the desktop runs every rule (the colour ones in both modes); the phone
      // runs the others on the whole page, which its layout can change (target sizes, scrolling regions), and the
      // colour rules on what only a phone shows (its navbar, the "On this page" dropdown).
      await test.step('no serious or critical axe violation in light mode', async () => {
        await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
        if (isMobile) {
          expect.soft(await seriousAxeViolations(page, {rules: 'not-colours'})).toEqual([]);
          expect
            .soft(await seriousAxeViolations(page, {rules: 'colours', include: '.navbar, .theme-doc-toc-mobile'}))
            .toEqual([]);
        } else {
          expect.soft(await seriousAxeViolations(page)).toEqual([]);
        }
      });
      // Dark mode, switched with the navbar toggle: only the colour rules (the rest read the same markup).
      if (!isMobile) {
        await test.step('no serious or critical axe violation of the colour rules in dark mode', async () => {
          await page.getByRole('button', {name: /Switch between dark and light mode/}).click();
          await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
          expect.soft(await seriousAxeViolations(page, {rules: 'colours'})).toEqual([]);
        });
      }
    });
  }

  // The desktop sidebar (a phone shows the same items in its menu: tests/mobile.mobile.spec.ts).
  test(
    "one sidebar holds every page once, the spec's eleven in its order and grouping",
    {tag: '@desktop-only'},
    async ({page}) => {
      await openPage(page, '/');
      const sidebar = page.locator('nav[aria-label="Docs sidebar"]');
      const categories = await sidebar
        .locator(':scope > ul > li.theme-doc-sidebar-item-category')
        .evaluateAll((items) =>
          items.map((item) => ({
            label: item.querySelector('.menu__list-item-collapsible')?.textContent ?? '',
            links: Array.from(item.querySelectorAll('a.menu__link[href]')).map(
              (link) => [link.getAttribute('href') ?? '', link.textContent ?? ''] as const,
            ),
          })),
        );
      expect(
        inOrder(
          SPEC_SIDEBAR.map((category) => category.label),
          categories.map((category) => category.label),
        ),
        'spec categories in order',
      ).toBe(true);
      for (const category of SPEC_SIDEBAR) {
        const built = categories.find((candidate) => candidate.label === category.label);
        // Each spec page under its category with its title, in the spec's order (new pages may come between).
        const builtLinks = (built?.links ?? []).map(([href, title]) => `${href} ${title}`);
        expect(
          builtLinks.filter((link) => category.pages.some(([path, title]) => link === `${path} ${title}`)),
          category.label,
        ).toEqual(category.pages.map(([path, title]) => `${path} ${title}`));
      }
      // Every doc of the sitemap, and nothing else, is linked exactly once.
      const hrefs = await sidebar
        .locator('a.menu__link[href]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect([...hrefs].sort()).toEqual(docRoutes().sort());
    },
  );

  // The desktop sidebar again; a phone's menu navigates in tests/mobile.mobile.spec.ts.
  test('moving through all pages with the sidebar works client-side', {tag: '@desktop-only'}, async ({page}) => {
    // One journey through every page: its time grows with the pages.
    test.setTimeout(15_000 + 5_000 * PAGES.length);
    await openPage(page, PAGES[0]!.path);
    for (const doc of PAGES.slice(1)) {
      await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: doc.title, exact: true}).click();
      await expect(page).toHaveURL(doc.path);
      await expect(page.getByRole('heading', {level: 1})).toHaveText(doc.title);
    }
  });
});

// Code off screen skips rendering (CodeBlock/styles.module.css): until shown it holds a size computed from its
// line and column counts, which must be the size it then takes, or the page would jump under the reader.
// On the phone, where more code is wider than its block, so the width counts. One test per page, each with its own
// time; the page with the most code blocks must have some skipped at load, or the check would prove nothing.
const codeBlocksIn = (route: string) => readFileSync(htmlFile(route), 'utf8').split('prism-code').length - 1;
const mostCode = docRoutes().reduce((best, route) => (codeBlocksIn(route) > codeBlocksIn(best) ? route : best));
for (const route of docRoutes()) {
  test(
    `${route}: every code block off screen skips rendering at exactly the size it takes when shown`,
    {tag: '@phone-only'},
    async ({page}) => {
      // Bounds a hang, not a speed: each skipped block waits two frames in view, and a frame of the longest page
      // took many times its quiet-machine time in a loaded CI run (BENCHMARKS.md, "Suite time").
      test.setTimeout(240_000);
      await openPage(page, route);
      const result = await page.evaluate(async () => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const sizeOf = (code: HTMLElement) => ({
          height: code.getBoundingClientRect().height,
          width: code.parentElement!.scrollWidth,
        });
        // A skipped block's own box is laid out, its contents are not: ask the first element inside.
        const skipped = (code: HTMLElement) =>
          code.firstElementChild !== null && !code.firstElementChild.checkVisibility({contentVisibilityAuto: true});
        // Every block's size at load, before scrolling renders any of them (blocks in a tab not shown are left out).
        const atLoad = Array.from(document.querySelectorAll<HTMLElement>('pre.prism-code > code'))
          .filter((code) => code.checkVisibility())
          .map((code) => ({code, wasSkipped: skipped(code), size: sizeOf(code)}));
        const mismatches: string[] = [];
        for (const [index, {code, wasSkipped, size}] of atLoad.entries()) {
          if (!wasSkipped) continue;
          code.scrollIntoView({block: 'center', behavior: 'instant'});
          await frame();
          const shown = sizeOf(code);
          if (skipped(code)) mismatches.push(`block ${index + 1} is still skipped in view`);
          else if (Math.abs(shown.height - size.height) > 1 || Math.abs(shown.width - size.width) > 1) {
            mismatches.push(
              `block ${index + 1}: ${JSON.stringify(size)} while skipped, ${JSON.stringify(shown)} shown`,
            );
          }
        }
        return {skippedAtLoad: atLoad.filter(({wasSkipped}) => wasSkipped).length, mismatches};
      });
      expect(result.mismatches).toEqual([]);
      if (route === mostCode) {
        expect(result.skippedAtLoad, 'blocks below the fold skipped at load').toBeGreaterThan(0);
      }
    },
  );
}
