import AxeBuilder from '@axe-core/playwright';
import type {Page} from '@playwright/test';
import {expect, openPage} from './fixtures';

export type ColourMode = 'light' | 'dark';

/**
 * The rules whose outcome depends on colours: all a second colour mode can change, since the modes differ only in
 * their colour variables. A page checked with every rule in one mode needs only these in the other.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe on the open page, run in the page itself ("legacy mode") when the page has no frame. The default mode keeps a
 * partial result with a selector for every node checked, passes included, and merges them in a second page, which
 * made every axe run of the suite much slower (BENCHMARKS.md, "axe run in the page"). What it adds is reaching
 * frames reliably (legacy mode gives a frame a moment to answer, then leaves it out silently), so a page with a
 * frame keeps it.
 */
export async function axeBuilder(page: Page): Promise<AxeBuilder> {
  const hasFrames = (await page.locator('iframe, frame').count()) > 0;
  return new AxeBuilder({page}).setLegacyMode(!hasFrames);
}

/**
 * The serious and critical axe violations on the open page (or inside `include`), each with the elements it names:
 * of every rule, of the colour rules only, or of every rule but those.
 */
export async function seriousAxeViolations(
  page: Page,
  {rules = 'all', include}: {rules?: 'all' | 'colours' | 'not-colours'; include?: string} = {},
): Promise<string[]> {
  // Code blocks draw a decorative shade at an edge where more code is hidden (src/css/custom.css). With any
  // background image axe cannot compute a colour pair and leaves code contrast "incomplete", so every code
  // token would go unchecked: the shade is lifted while axe reads the page.
  // Transitions are stopped too: just after a colour-mode switch, colours still transitioning would be read halfway
  // (removing a transition ends it at its final value).
  const withoutShade = await page.addStyleTag({
    content:
      '.theme-code-block pre { background-image: none !important; } *, *::before, *::after { transition: none !important; }',
  });
  // Only violations are read: axe then skips building a selector for every element that passes.
  const whole = (await axeBuilder(page)).options({resultTypes: ['violations']});
  const builder = include ? whole.include(include) : whole;
  const chosen =
    rules === 'colours'
      ? builder.withRules(COLOUR_RULES)
      : rules === 'not-colours'
        ? builder.disableRules(COLOUR_RULES)
        : builder;
  const results = await chosen.analyze();
  await withoutShade.evaluate((style) => (style as Element).remove());
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Opens a page in a colour mode and expects no serious or critical axe violation on it. */
export async function expectNoSeriousAxeViolations(page: Page, path: string, mode: ColourMode): Promise<void> {
  await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
  await openPage(page, path);
  await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
  expect(await seriousAxeViolations(page)).toEqual([]);
}
