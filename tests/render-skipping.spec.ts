import {docRoutes} from './support/docs';
import {test} from './support/fixtures';
import {checkTablesRenderedOnlyNearViewport, checkDeepAnchorLands, expectNoLayoutShiftOnLoad} from './support/render-skipping';

// Long pages skip rendering tables far from the viewport (content-visibility: auto).
test.describe('render skipping on long pages (desktop)', () => {
  test('tables far below the fold are skipped until they come near the viewport', async ({page}) => {
    await checkTablesRenderedOnlyNearViewport(page);
  });

  test('a link to a deep anchor lands on its heading and stays there', async ({page}) => {
    await checkDeepAnchorLands(page);
  });

  test.describe("at the size of Lighthouse's desktop run", () => {
    // 940 px tall: the first table of /basics/iframe and what follows it are both in the first screenful.
    test.use({viewport: {width: 1350, height: 940}});
    test('no page shifts its layout while it loads (a table in the first screenful is rendered at once)', async ({page}) => {
      await expectNoLayoutShiftOnLoad(page, docRoutes());
    });
  });
});
