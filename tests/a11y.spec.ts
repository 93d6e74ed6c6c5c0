import AxeBuilder from '@axe-core/playwright';
import {ALL_DOCS} from '../src/constants/docs';
import {expect, openPage, test} from './support/fixtures';

for (const mode of ['light', 'dark'] as const) {
  test.describe(`accessibility in ${mode} mode`, () => {
    // axe walks every node of the longest reference pages: give it room on a busy 2-core machine.
    test.describe.configure({timeout: 120_000});
    for (const doc of ALL_DOCS) {
      test(`${doc.path} has no serious or critical axe violations`, async ({page}) => {
        await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
        await openPage(page, doc.path);
        await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
        const results = await new AxeBuilder({page}).analyze();
        const blocking = results.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        expect(blocking).toEqual([]);
      });
    }
  });
}

test.describe('not-found page', () => {
  test.use({allowedConsoleErrors: /status of 404/});
  test('has no serious or critical axe violations', async ({page}) => {
  await page.goto('/no-such-page');
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const results = await new AxeBuilder({page}).analyze();
  expect(results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((v) => v.id)).toEqual([]);
});
});
