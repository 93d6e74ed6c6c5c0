import {expect, openPage, test} from './support/fixtures';
import {seriousAxeViolations} from './support/axe';

// Each doc page is checked in light mode (and dark on a desktop) on the load tests/routes.spec.ts checks it on.
test.describe('not-found page', () => {
  test.use({allowedConsoleErrors: /status of 404/});
  test('has no serious or critical axe violations', async ({page}) => {
    await openPage(page, '/no-such-page');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
