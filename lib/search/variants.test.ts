import {expect, test} from '@playwright/test';

import {tokenize} from './tokenize';
import {docsWording, historyTopic, topicWords} from './variants';

test.describe('readers’ words for the docs’ words', {tag: '@viewport-independent'}, () => {
  test('a query splits as the search plugin splits it, without the punctuation around each word', () => {
    expect(tokenize("What's new?", ['en'])).toEqual(["what's", 'new']);
    expect(tokenize('{{accessToken}} empty', ['en'])).toEqual(['accesstoken', 'empty']);
    expect(tokenize('"webhook signature" (HMAC)', ['en'])).toEqual(['webhook', 'signature', 'hmac']);
    const words = ['x', 'ratelimit', 'remaining', 'orders.create', 'acme', 'connect/sdk'];
    expect(tokenize('X-RateLimit-Remaining orders.create @acme-connect/sdk', ['en'])).toEqual(words);
    expect(tokenize('بطاقة eSIM 🚀 * ~', ['en'])).toEqual(['بطاقة', 'esim']);
  });

  test('a reader’s phrase is searched in the docs’ words first, then as typed; one in the docs’ words, or with none of the readers’ phrases, only as typed', () => {
    expect(docsWording(tokenize('too many requests'))).toEqual([
      ['rate', 'limits'],
      ['too', 'many', 'requests'],
    ]);
    expect(docsWording(tokenize('topup an esim'))).toEqual([
      ['top', 'up', 'an', 'esim'],
      ['topup', 'an', 'esim'],
    ]);
    // Matched on stems: a plural or another form of the same word.
    expect(docsWording(tokenize('Invoices PDF'))[0]).toEqual(['invoices']);
    expect(docsWording(tokenize('where are my API key'))[0]).toEqual(['where', 'are', 'my', 'credentials']);
    expect(docsWording(tokenize('top-up'))).toEqual([['top', 'up']]);
    expect(docsWording(tokenize('webhook signature'))).toEqual([['webhook', 'signature']]);
    expect(docsWording([])).toEqual([[]]);
  });

  test('a question is searched without the words that name no topic first, when a word that names one is left', () => {
    expect(topicWords(tokenize('how do i know when an order is ready'))).toEqual(
      tokenize('how do i when an order is ready'),
    );
    expect(topicWords(tokenize('order status values'))).toEqual(['order', 'status']);
    // "handle" names no topic: "handle 429" is about rate limits, not a checklist that says "handle".
    expect(topicWords(tokenize('how to handle 429'))).toEqual(tokenize('how to 429'));
    // Nothing to drop, nothing left, or only stop words left: searched only as typed.
    expect(topicWords(tokenize('webhook signature'))).toBeNull();
    expect(topicWords(tokenize('possible values'))).toBeNull();
    for (const query of ['how do i know', 'is it possible', 'what do i need']) {
      expect(topicWords(tokenize(query)), query).toBeNull();
    }
    // Words that headings use are no question words ("Use the token", "How … works", "Event types").
    expect(topicWords(tokenize('how do i use the token'))).toBeNull();
    expect(topicWords(tokenize('how does it work'))).toBeNull();
  });

  test('a question about the docs’ history (a year, a deprecation, or "when" about a change) has its topic apart', () => {
    // Without its word of change: a news page's entry files it under a heading ("Added").
    expect(historyTopic(tokenize('when were refunds added'))).toEqual(['when', 'were', 'refunds']);
    expect(historyTopic(tokenize('page parameter deprecated'))).toEqual(['page', 'parameter']);
    expect(historyTopic(tokenize('2025 api changes'))).toEqual(['2025', 'api']);
    for (const query of ['what happens when an endpoint is removed', 'how are top-ups added', 'when is an order ready'])
      expect(historyTopic(tokenize(query)), query).toBeNull();
  });
});
