// The rule sentences the pages render from the behaviour model (src/constants/behaviour), in the build's `.md` twins.
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {
  ERROR_CODES,
  IDEMPOTENCY,
  IMPLICIT_SAME_KEY,
  PAGINATION,
  REFUND_RULES,
  WIDGET_CAPS,
} from '../src/constants/behaviour';
import {BUILD_DIR} from './support/docs';

const twin = (route: string) => readFileSync(path.join(BUILD_DIR, `${route}.md`), 'utf8').replace(/\s+/g, ' ');

const CONCEPTS = '/getting-started/main-concepts';

test.describe('rule sentences', () => {
  test('Billing says what a refund returns (applied top-ups are not refunded) and why a pending top-up blocks it', () => {
    for (const sentence of [REFUND_RULES.sentence, REFUND_RULES.pendingTopupSentence, ...REFUND_RULES.notRefunded])
      expect(twin('/account-management/billing')).toContain(sentence);
  });

  test('the Idempotency section says what the same request is, exactly what is stored and that a replay is the first answer', () => {
    for (const sentence of [IDEMPOTENCY.sameRequestSentence, IDEMPOTENCY.storedSentence, IDEMPOTENCY.replaySentence])
      expect(twin(CONCEPTS)).toContain(sentence);
  });

  test('Main concepts has one section per error code of the model, in its order, opening with its status and retry policy', () => {
    const sections = [...twin(CONCEPTS).matchAll(/### (\w+) HTTP (\d+), `retry`: `(\w+)`/g)].map(
      ([, code, status, retry]) => ({code, status: Number(status), retry}),
    );
    expect(sections).toEqual(ERROR_CODES.map(({code, status, retry}) => ({code, status, retry})));
    // Each section's anchor is its code: an error's doc_url points there.
    const html = readFileSync(path.join(BUILD_DIR, 'getting-started/main-concepts.html'), 'utf8');
    const anchors = new Set([...html.matchAll(/<h3[^>]*\sid="?([\w-]+)/g)].map(([, id]) => id));
    expect(ERROR_CODES.map(({code}) => code).filter((code) => !anchors.has(code))).toEqual([]);
  });

  test('the same_key rows of the retry tables name the failures without a retry field, the token endpoint’s 429 included', () => {
    expect(IMPLICIT_SAME_KEY).toMatch(/429/);
    const sdkRow = readFileSync(path.join(BUILD_DIR, 'basics/sdk.md'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `same_key` |'));
    expect(sdkRow, 'the SDK page’s retry table has a same_key row').toContain(IMPLICIT_SAME_KEY);
    expect(twin(CONCEPTS)).toContain(IMPLICIT_SAME_KEY);
  });

  test('the Pagination section says how a cursor walks a list when items are created during the walk', () => {
    expect(twin(CONCEPTS)).toContain(PAGINATION.cursorSentence);
  });

  test('the iframe page says which orders and top-ups count against the caps', () => {
    expect(twin('/basics/iframe')).toContain(WIDGET_CAPS.countedSentence);
  });
});
