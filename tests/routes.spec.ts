import {readFileSync} from 'node:fs';
import type {Page} from '@playwright/test';
import {SITE} from '../src/constants/site';
import {builtSidebar, docPages, docRoutes, htmlFile} from './support/docs';
import {expect, openPage, test} from './support/fixtures';
import {seriousAxeViolations} from './support/axe';
import {afterFrames, LIGHTHOUSE_DESKTOP, layoutShifts, recordLayoutShifts} from './support/layout-shifts';

// Spec §2's sidebar: the eleven pages it names, in order (the pages checked come from the build).
const SPEC_SIDEBAR: Record<string, Record<string, string>> = {
  'Getting started': {
    '/': 'Introduction',
    '/getting-started/quick-start': 'Quick start',
    '/getting-started/main-concepts': 'Main concepts',
    '/getting-started/authentication': 'Authentication',
  },
  Basics: {'/basics/sdk': 'SDK', '/basics/iframe': 'Iframe', '/basics/test-in-postman': 'Test in Postman'},
  'Account management': {'/account-management/dashboard': 'Dashboard', '/account-management/billing': 'Billing'},
  Additional: {'/additional/changelog': 'Changelog', '/additional/contact-and-help-center': 'Contact and help center'},
};

const PAGES = docPages();
/** Every doc in sidebar order: the order the pagination links chain them in. */
const SIDEBAR_ORDER = builtSidebar().flatMap((group) => group.pages.map((entry) => entry.path));
const codeBlocksIn = (route: string) => readFileSync(htmlFile(route), 'utf8').split('prism-code').length - 1;
const MOST_CODE = docRoutes().reduce((best, route) => (codeBlocksIn(route) > codeBlocksIn(best) ? route : best));

/** The head the open page ends with (after hydration): the values of its meta tags and links, by name or rel. */
function readHead(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const tags: Record<string, (string | null)[]> = {
      title: [document.title],
      lang: [root.getAttribute('lang')],
      dir: [root.getAttribute('dir')],
    };
    for (const tag of Array.from(document.head.querySelectorAll('meta[name], meta[property], link[rel]'))) {
      const key = tag.getAttribute('name') ?? tag.getAttribute('property') ?? tag.getAttribute('rel')!;
      (tags[key] ??= []).push(tag.getAttribute(tag.localName === 'link' ? 'href' : 'content'));
    }
    return tags;
  });
}

/** Remembers every node of every code block as parsed, before the deferred scripts (React) run. */
function rememberParsedCode() {
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    const parsed = new WeakSet<Node>();
    for (const block of Array.from(document.querySelectorAll('pre.prism-code'))) {
      const walker = document.createTreeWalker(block);
      for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) parsed.add(node);
    }
    (window as unknown as {parsedCode: WeakSet<Node>}).parsedCode = parsed;
  });
}

/** Duplicate ids on the open page, and url(#id) references of an inline SVG that point outside it. */
function idProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const ids = Array.from(document.querySelectorAll('[id]'), (element) => element.id);
    const found = ids.filter((id, index) => ids.indexOf(id) !== index).map((id) => `duplicate id "${id}"`);
    for (const svg of Array.from(document.querySelectorAll('svg'))) {
      for (const element of Array.from(svg.querySelectorAll('*'))) {
        for (const {name, value} of Array.from(element.attributes)) {
          for (const [, id] of value.matchAll(/url\(#([^)]+)\)/g)) {
            if (!svg.querySelector(`[id="${id}"]`)) found.push(`${name}="${value}" points outside its <svg>`);
          }
        }
      }
    }
    return found;
  });
}

/** Code off screen skips rendering at a size it must keep once shown: scrolls to each block skipped at load. */
function codeBlockSizes(page: Page) {
  return page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const sizeOf = (code: HTMLElement) => ({
      height: code.getBoundingClientRect().height,
      width: code.parentElement!.scrollWidth,
    });
    // A skipped block's own box is laid out, its contents are not: ask the first element inside.
    const skipped = (code: HTMLElement) =>
      code.firstElementChild !== null && !code.firstElementChild.checkVisibility({contentVisibilityAuto: true});
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
        mismatches.push(`block ${index + 1}: ${JSON.stringify(size)} while skipped, ${JSON.stringify(shown)} shown`);
      }
    }
    return {skippedAtLoad: atLoad.filter(({wasSkipped}) => wasSkipped).length, mismatches};
  });
}

test.describe('the documentation routes (spec §2)', () => {
  // One load per page for every check (a load costs more than all of them but axe); soft, so none hides another.
  for (const doc of PAGES) {
    test(`${doc.path} renders "${doc.title}" with its title, head tags, active sidebar link and pagination links, unique ids, no layout shift while it loads, its code kept by hydration, no serious axe violation in light mode (and of the colour rules in dark mode on a desktop), and on a phone no sideways scrolling and code blocks off screen skipping rendering at exactly the size they take when shown`, async ({
      page,
      isMobile,
    }) => {
      // Bounds a hang, not a speed: axe walks every node of the longest pages; a phone waits frames at each code block.
      test.setTimeout(240_000);
      if (!isMobile) await page.setViewportSize(LIGHTHOUSE_DESKTOP);
      await recordLayoutShifts(page);
      await page.addInitScript(rememberParsedCode);
      const response = await openPage(page, doc.path);
      // Two frames after hydration: what hydration changes has been laid out by then.
      await afterFrames(page, 2);
      expect.soft(await layoutShifts(page), 'layout shifts while it loads and hydrates (Lighthouse CLS 0)').toEqual([]);

      const code = await page.evaluate(() => {
        const parsed = (window as unknown as {parsedCode: WeakSet<Node>}).parsedCode;
        const tokens = Array.from(document.querySelectorAll('pre.prism-code .token'));
        return {tokens: tokens.length, replaced: tokens.filter((node) => !parsed.has(node)).length};
      });
      expect.soft(code.replaced, 'code tokens hydration replaced (it keeps the server-rendered code)').toBe(0);
      if (doc.path === MOST_CODE)
        expect.soft(code.tokens, 'code tokens of the page with the most').toBeGreaterThan(500);

      expect.soft(response?.status(), 'status').toBe(200);
      expect.soft(doc.title, 'its sidebar title').not.toBe('');
      await expect.soft(page.getByRole('heading', {level: 1}), 'h1').toHaveText(doc.title);
      const activeLink = page.locator('.theme-doc-sidebar-menu a.menu__link[aria-current="page"]');
      await expect.soft(activeLink, 'active sidebar link').toHaveText(doc.title);
      await expect.soft(activeLink, 'active sidebar link').toHaveAttribute('href', doc.path);
      await expect.soft(page.locator('.theme-doc-markdown > p').first(), 'first paragraph').not.toBeEmpty();
      expect.soft(await page.locator('.theme-doc-markdown h2').count(), 'h2 sections').toBeGreaterThanOrEqual(3);

      // The head after hydration, not only the one the server sent; spec §1: English, left-to-right.
      const head = await readHead(page);
      const [title, card] = [`${doc.title} | ${SITE.title}`, `${SITE.url}/img/social-card.png`];
      expect.soft(head, 'head').toMatchObject({
        title: [title],
        lang: ['en'],
        dir: ['ltr'],
        description: [expect.stringMatching(/^[\s\S]{51,}$/)],
        canonical: [SITE.url + doc.path],
        'og:title': [title],
        'og:description': head.description,
        'og:url': [SITE.url + doc.path],
        'og:image': [card],
        'twitter:card': ['summary_large_image'],
        'twitter:image': [card],
        icon: [expect.stringMatching(/favicon\.svg$/)],
      });
      expect.soft(head.robots, 'robots meta tag').toBeUndefined();

      // Pagination to the previous and next doc in sidebar order (none off the sidebar).
      const at = SIDEBAR_ORDER.indexOf(doc.path);
      const [previous, next] = at < 0 ? [] : [SIDEBAR_ORDER[at - 1], SIDEBAR_ORDER[at + 1]];
      for (const [link, neighbour] of Object.entries({prev: previous, next})) {
        const pagination = page.locator(`.pagination-nav__link--${link}`);
        if (neighbour) await expect.soft(pagination, `${link} link`).toHaveAttribute('href', neighbour);
        else await expect.soft(pagination, `no ${link} link`).toHaveCount(0);
      }
      await expect.soft(page.locator('html')).toHaveClass(/docs-version-current/);
      if (doc.path === '/')
        await expect.soft(page.locator('html')).toHaveClass(/docs-doc-id-getting-started\/introduction/);
      expect.soft(await idProblems(page), 'unique ids, url(#id) of an inline SVG resolved inside it').toEqual([]);

      // Desktop: every axe rule (colours in both modes); phone: those its layout changes, colours on phone-only parts.
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
      if (isMobile) {
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect.soft(overflow, `${doc.path} scrolls sideways`).toBeLessThanOrEqual(0);
        expect.soft(await seriousAxeViolations(page, {rules: 'not-colours'}), 'axe').toEqual([]);
        const phoneOnly = {rules: 'colours', include: '.navbar, .theme-doc-toc-mobile'} as const;
        expect.soft(await seriousAxeViolations(page, phoneOnly), 'axe colour rules').toEqual([]);
        // Last, as it scrolls; on the phone, where more code overflows, so the width counts.
        const sizes = await codeBlockSizes(page);
        expect.soft(sizes.mismatches, 'code blocks that change size when shown').toEqual([]);
        // The page with the most code must have some skipped, or the check would prove nothing.
        if (doc.path === MOST_CODE) expect.soft(sizes.skippedAtLoad, 'blocks skipped at load').toBeGreaterThan(0);
      } else {
        expect.soft(await seriousAxeViolations(page), 'axe in light mode').toEqual([]);
        // Dark mode, switched with the navbar toggle: only the colour rules (the rest read the same markup).
        await page.getByRole('button', {name: /Switch between dark and light mode/}).click();
        await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
        expect.soft(await seriousAxeViolations(page, {rules: 'colours'}), 'axe colour rules in dark mode').toEqual([]);
      }
    });
  }

  // The desktop sidebar (a phone shows the same items in its menu: tests/mobile.mobile.spec.ts).
  test(
    "one sidebar holds every page once, the spec's eleven in its order and grouping, and moving through all pages with it works client-side",
    {tag: '@desktop-only'},
    async ({page}) => {
      test.setTimeout(15_000 + 5_000 * PAGES.length);
      await openPage(page, '/');
      const sidebar = page.locator('nav[aria-label="Docs sidebar"]');
      const categories = await sidebar
        .locator(':scope > ul > li.theme-doc-sidebar-item-category')
        .evaluateAll((items) =>
          items.map((item) => ({
            label: item.querySelector('.menu__list-item-collapsible')?.textContent ?? '',
            links: Array.from(item.querySelectorAll('a.menu__link[href]')).map(
              (link) => `${link.getAttribute('href')} ${link.textContent}`,
            ),
          })),
        );
      const labels = categories.map((category) => category.label).filter((label) => Object.hasOwn(SPEC_SIDEBAR, label));
      expect(labels, 'spec categories in order (others may come between)').toEqual(Object.keys(SPEC_SIDEBAR));
      for (const [label, pages] of Object.entries(SPEC_SIDEBAR)) {
        // In the spec's order under its category (new pages may come between).
        const wanted = Object.entries(pages).map(([path, title]) => `${path} ${title}`);
        const built = categories.find((category) => category.label === label)?.links ?? [];
        const listed = built.filter((link) => wanted.includes(link));
        expect(listed, label).toEqual(wanted);
      }
      // Every doc of the sitemap, and nothing else, is linked exactly once.
      const hrefs = await sidebar
        .locator('a.menu__link[href]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect([...hrefs].sort()).toEqual(docRoutes().sort());

      for (const doc of PAGES.filter(({path}) => path !== '/')) {
        await sidebar.getByRole('link', {name: doc.title, exact: true}).click();
        await expect(page).toHaveURL(doc.path);
        await expect(page.getByRole('heading', {level: 1})).toHaveText(doc.title);
      }
    },
  );
});
