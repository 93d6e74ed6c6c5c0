import {expect, test} from '@playwright/test';

import {tokenize} from './tokenize';

test.describe('search query words', {tag: '@viewport-independent'}, () => {
  test('splits a query as the search plugin does and drops the punctuation around each word', () => {
    expect(tokenize("What's new?", ['en'])).toEqual(["what's", 'new']);
    expect(tokenize('{{accessToken}} empty', ['en'])).toEqual(['accesstoken', 'empty']);
    expect(tokenize('"webhook signature" (HMAC)', ['en'])).toEqual(['webhook', 'signature', 'hmac']);
    expect(tokenize('X-RateLimit-Remaining orders.create @acme-connect/sdk', ['en'])).toEqual([
      'x',
      'ratelimit',
      'remaining',
      'orders.create',
      'acme',
      'connect/sdk',
    ]);
    expect(tokenize('بطاقة eSIM 🚀 * ~', ['en'])).toEqual(['بطاقة', 'esim']);
  });
});
