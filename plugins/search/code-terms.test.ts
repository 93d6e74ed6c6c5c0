import {expect, test} from '@playwright/test';

import searchCodeTerms, {codeTerms, searchPluginLunr} from './code-terms';

const OPTIONS = {language: ['en'], removeDefaultStopWordFilter: [], removeDefaultStemmer: false};
/** Builds an index with the search plugin's own builder, as its postBuild does. */
function indexOf(text: string): {search(query: string): {ref: string}[]} {
  const {buildIndex} = require('@easyops-cn/docusaurus-search-local/dist/server/server/utils/buildIndex');
  return buildIndex([[{i: 1, t: text}]], OPTIONS)[0].index;
}

test.describe('search-code-terms plugin', {tag: '@viewport-independent'}, () => {
  test('finds the dotted names and their tails inside a code token, and nothing in prose', () => {
    expect(codeTerms('acme.orders.create(params,')).toEqual([
      {term: 'acme.orders.create', offset: 0},
      {term: 'orders.create', offset: 5},
    ]);
    const terms = ['console.log', 'event.data.object.iccid', 'data.object.iccid', 'object.iccid'];
    expect(codeTerms('console.log(event.data.object.iccid)').map(({term}) => term)).toEqual(terms);
    // The token itself is indexed anyway.
    expect(codeTerms('acme.packages.list')).toEqual([{term: 'packages.list', offset: 5}]);
    for (const prose of ['refund', 'traveller’s', "it's", 'done.', 'x_request_id', '{idempotencykey:', '1.0.0']) {
      expect(codeTerms(prose), prose).toEqual([]);
    }
  });

  test("the search plugin's index builder finds a method and an option named inside code", () => {
    searchCodeTerms();
    const code = indexOf(
      'const order = await acme.orders.create(params, {idempotencyKey: randomUUID()}); console.log(err.retryAfter);',
    );
    for (const query of ['orders.create', '+orders.create +idempotencyKey', 'err.retryAfter']) {
      expect(code.search(query), query).toHaveLength(1);
    }
    // Prose is tokenized as before.
    expect(indexOf('Refunds are credited to your balance.').search('refund')).toHaveLength(1);
    const tokens = searchPluginLunr().tokenizer('acme.orders.create(params)').map(String);
    expect(tokens).toEqual(['acme.orders.create(params)', 'acme.orders.create', 'orders.create']);
  });
});
