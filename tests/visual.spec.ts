/**
 * The design system, photographed: the specimen page (src/test-pages/design-specimen.mdx: type scale, prose,
 * table, code surfaces, tabs, admonitions) and a doc page's Markdown actions, in both colour modes, at the
 * desktop and phone widths of the two browser projects. Writers' pages are never photographed, so a content
 * change cannot fail this. After a deliberate design change: `npx playwright test tests/visual.spec.ts
 * --update-snapshots`, look at the new PNGs, commit them.
 */
import {expectNoSeriousAxeViolations, type ColourMode} from './support/axe';
import {docRoutes} from './support/docs';
import {expect, test} from './support/fixtures';

// Font hinting and anti-aliasing differ slightly between machines: a small share of pixels may differ, each
// by a small amount; a change of spacing, size or colour moves far more.
const TOLERANCE = {maxDiffPixelRatio: 0.01, threshold: 0.2, animations: 'disabled', caret: 'hide'} as const;

for (const mode of ['light', 'dark'] as ColourMode[]) {
  test.describe(`${mode} mode`, () => {
    test('the specimen page: type scale, prose, table, code, tabs and admonitions; contrast AA', async ({page}) => {
      await expectNoSeriousAxeViolations(page, '/design-specimen', mode);
      // The whole page is photographed and cut to the specimen: an element shot would scroll the title under
      // the sticky navbar.
      await page.evaluate(() => window.scrollTo(0, 0));
      const clip = (await page.locator('article .markdown').boundingBox())!;
      await expect(page).toHaveScreenshot(`specimen-${mode}.png`, {...TOLERANCE, fullPage: true, clip});
    });

    test("a doc page's Markdown actions", async ({page}) => {
      await expectNoSeriousAxeViolations(page, docRoutes()[0]!, mode);
      await expect(page.locator('.page-markdown-actions')).toHaveScreenshot(`markdown-actions-${mode}.png`, TOLERANCE);
    });
  });
}
