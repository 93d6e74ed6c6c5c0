import {docRoutes} from './support/docs';
import {expect, openPage, test} from './support/fixtures';
import {expectNoSeriousAxeViolations, seriousAxeViolations} from './support/axe';

// Light mode, on the desktop and on a phone, runs on the page load that tests/routes.spec.ts checks each page on.
// A mode's colours are the same at any width, so dark mode is checked on the desktop only.
test.describe('accessibility in dark mode', {tag: '@desktop-only'}, () => {
  // axe walks every node of the longest reference pages: give it room on a busy 2-core machine.
  test.describe.configure({timeout: 120_000});
  for (const route of docRoutes()) {
    test(`${route} has no serious or critical axe violations`, async ({page}) => {
      await expectNoSeriousAxeViolations(page, route, 'dark');
    });
  }
});

test.describe('not-found page', () => {
  test.use({allowedConsoleErrors: /status of 404/});
  test('has no serious or critical axe violations', async ({page}) => {
    await openPage(page, '/no-such-page');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
