import {docRoutes} from './support/docs';
import {test} from './support/fixtures';
import {expectNoSeriousAxeViolations} from './support/axe';

// On a phone too (Lighthouse's mobile run is one): narrow layouts overflow code and tables sideways and
// skip rendering far content, which changes what axe can see of colours and backgrounds.
for (const mode of ['light', 'dark'] as const) {
  test.describe(`accessibility on a phone in ${mode} mode`, () => {
    test.describe.configure({timeout: 120_000});
    for (const route of docRoutes()) {
      test(`${route} has no serious or critical axe violations`, async ({page}) => {
        await expectNoSeriousAxeViolations(page, route, mode);
      });
    }
  });
}
