/**
 * The rule sentences the pages render from the behaviour model, in the production build (their `.md`
 * twins): what a refund returns, what is stored under an Idempotency-Key and what a replay is, how a
 * cursor walks a list, and which orders count against the widget's caps. Plain Node tests: build first (tagged
 * @viewport-independent: run once, not again for the phone).
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {ERROR_CODES, IDEMPOTENCY, PAGINATION, REFUND_RULES, WIDGET_CAPS} from '../src/constants/behaviour';

const BUILD_DIR = path.resolve(__dirname, '..', 'build');
const twin = (route: string) => readFileSync(path.join(BUILD_DIR, `${route}.md`), 'utf8').replace(/\s+/g, ' ');

test.describe('rule sentences', {tag: '@viewport-independent'}, () => {
  test('Billing says what a refund returns (applied top-ups are not refunded) and why a pending top-up blocks it', () => {
    const billing = twin('/account-management/billing');
    expect(billing).toContain(REFUND_RULES.sentence);
    expect(billing).toContain(REFUND_RULES.pendingTopupSentence);
    for (const item of REFUND_RULES.notRefunded) expect(billing).toContain(item);
  });

  test('the Idempotency section says what the same request is, exactly what is stored and that a replay is the first answer', () => {
    const concepts = twin('/getting-started/main-concepts');
    expect(concepts).toContain(IDEMPOTENCY.sameRequestSentence);
    expect(concepts).toContain(IDEMPOTENCY.storedSentence);
    expect(concepts).toContain(IDEMPOTENCY.replaySentence);
  });

  test('each error code’s own section opens with its status and retry policy, as the table and the API’s retry field give them', () => {
    const concepts = twin('/getting-started/main-concepts');
    const openings = ERROR_CODES.filter(
      (rule) => !concepts.includes(`### ${rule.code} HTTP ${rule.status}, \`retry\`: \`${rule.retry}\``),
    ).map((rule) => rule.code);
    expect(openings).toEqual([]);
  });

  test('the Pagination section says how a cursor walks a list when items are created during the walk', () => {
    expect(twin('/getting-started/main-concepts')).toContain(PAGINATION.cursorSentence);
  });

  test('the iframe page says which orders and top-ups count against the caps', () => {
    expect(twin('/basics/iframe')).toContain(WIDGET_CAPS.countedSentence);
  });
});
