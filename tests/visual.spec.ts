/**
 * The design system, photographed: the specimen page (src/test-pages/design-specimen.mdx: type scale, prose,
 * table, code surfaces, tabs, admonitions) and a doc page's Markdown actions, at the desktop and phone widths of
 * the two browser projects, in both colour modes. Writers' pages are never photographed, so a content
 * change cannot fail this. After a deliberate design change: `npx playwright test tests/visual.spec.ts
 * --update-snapshots`, look at the new PNGs, commit them.
 */
import {expectNoSeriousAxeViolations, type ColourMode} from './support/axe';
import {expect, openPage, test} from './support/fixtures';

// Font hinting and anti-aliasing differ slightly between machines: a small share of pixels may differ, each
// by a small amount; a change of spacing, size or colour moves far more.
const TOLERANCE = {maxDiffPixelRatio: 0.01, threshold: 0.2, animations: 'disabled', caret: 'hide'} as const;

for (const mode of ['light', 'dark'] as ColourMode[]) {
  test.describe(`${mode} mode`, () => {
    test('the specimen page: type scale, prose, table, code, tabs and admonitions (photographed in light mode on a desktop, dark on a phone); contrast AA; table headings on one line on a wide screen, wrapped on a phone rather than overflowing', async ({
      page,
      isMobile,
    }) => {
      await expectNoSeriousAxeViolations(page, '/design-specimen', mode);
      const table = page.locator('article table').first();
      const headingLines = await table.locator('th').evaluateAll((cells) =>
        cells.map((cell) => {
          const style = getComputedStyle(cell);
          const height =
            cell.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
          return Math.round(height / parseFloat(style.lineHeight));
        }),
      );
      if (isMobile) {
        const overflows = await table.evaluate((element) => element.scrollWidth > element.parentElement!.clientWidth);
        expect(overflows, 'the specimen table overflows a phone').toBe(false);
        expect(Math.max(...headingLines), 'its longest heading wraps').toBeGreaterThan(1);
      } else {
        expect(headingLines, 'lines of each table heading').toEqual(headingLines.map(() => 1));
      }
      // What lets one photograph per width cover both modes: no rule sets a colour mode's look at one width only.
      const modeRulesByWidth = await page.evaluate(() => {
        const found: string[] = [];
        const walk = (rules: CSSRuleList, inWidthQuery: boolean) => {
          for (const rule of Array.from(rules)) {
            if (rule instanceof CSSMediaRule) walk(rule.cssRules, inWidthQuery || /width/.test(rule.conditionText));
            else if (rule instanceof CSSGroupingRule) walk(rule.cssRules, inWidthQuery);
            else if (inWidthQuery && rule instanceof CSSStyleRule && /data-theme/.test(rule.selectorText))
              found.push(rule.selectorText);
          }
        };
        for (const sheet of Array.from(document.styleSheets)) walk(sheet.cssRules, false);
        return found;
      });
      expect(modeRulesByWidth, 'colour-mode rules inside a width query: photograph both modes at both widths').toEqual(
        [],
      );
      // One photograph per width, in one mode each: the colours are the same variables at every width, and what the
      // phone changes (title size, heading wrap) does not depend on the mode. The other mode's contrast is axe's above.
      if (mode !== (isMobile ? 'dark' : 'light')) return;
      // The whole page is photographed and cut to the specimen: an element shot would scroll the title under
      // the sticky navbar.
      await page.evaluate(() => window.scrollTo(0, 0));
      // Code off screen skips rendering until a reader scrolls near it; a whole-page photograph would show it blank.
      await page.addStyleTag({content: 'pre.prism-code > code { content-visibility: visible; }'});
      const clip = (await page.locator('article .markdown').boundingBox())!;
      await expect(page).toHaveScreenshot(`specimen-${mode}.png`, {...TOLERANCE, fullPage: true, clip});
    });

    // Their contrast is the accessibility spec's, on every page.
    test("a doc page's Markdown actions", async ({page}) => {
      await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
      await openPage(page, '/');
      await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
      await expect(page.locator('.page-markdown-actions')).toHaveScreenshot(`markdown-actions-${mode}.png`, TOLERANCE);
    });
  });
}
