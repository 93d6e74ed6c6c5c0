import {test} from './support/fixtures';
import {checkBlocksRenderedOnlyNearViewport, checkDeepAnchorLands} from './support/render-skipping';

// Long pages skip rendering tables far from the viewport (content-visibility: auto).
test.describe('render skipping on long pages (desktop)', () => {
  test('tables far below the fold are skipped until they come near the viewport', async ({page}) => {
    await checkBlocksRenderedOnlyNearViewport(page);
  });

  test('a link to a deep anchor lands on its heading and stays there', async ({page}) => {
    await checkDeepAnchorLands(page);
  });
});
