/**
 * The pages' retry tables in the production build (their `.md` twins): the `same_key` rows name every
 * failure the model says a client retries although it carries no `retry` field. Plain Node tests:
 * build first (tagged @viewport-independent: run once, not again for the phone).
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {IMPLICIT_SAME_KEY} from '../src/constants/behaviour';

const BUILD_DIR = path.resolve(__dirname, '..', 'build');
const twin = (route: string) => readFileSync(path.join(BUILD_DIR, `${route}.md`), 'utf8');

test.describe('retry tables', {tag: '@viewport-independent'}, () => {
  test('the same_key rows name the failures without a retry field, the token endpoint’s 429 included', () => {
    expect(IMPLICIT_SAME_KEY).toMatch(/429/);
    const sdkRow = twin('/basics/sdk')
      .split('\n')
      .find((line) => line.startsWith('| `same_key` |'));
    expect(sdkRow, 'the SDK page’s retry table has a same_key row').toBeDefined();
    expect(sdkRow).toContain(IMPLICIT_SAME_KEY);
    expect(twin('/getting-started/main-concepts')).toContain(IMPLICIT_SAME_KEY);
  });
});
