import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, test} from '@playwright/test';

import searchAskAiOff from './ask-ai-off';
import searchCodeTerms, {codeTerms, searchPluginLunr} from './code-terms';
import searchHighlightGuard from './highlight-guard';
import {workerModule} from './index';

type ConfigureWebpack<T = object> = (config: object, isServer: boolean) => T;

test.describe('search plugins', {tag: '@viewport-independent'}, () => {
  test('its worker stands in for the file the theme starts, by the path the theme starts it with', () => {
    const original = workerModule();
    expect(existsSync(original)).toBe(true);
    // A new theme layout must fail here, not silently run the theme's own worker on the split index.
    const starter = readFileSync(path.join(path.dirname(original), 'searchByWorker.js'), 'utf8');
    expect(starter).toContain('new Worker(new URL("./worker.js", import.meta.url))');
  });

  test('search-ask-ai-off aliases the widget and its CSS to an empty module only while askAi is unset', () => {
    const webpackOf = (options: {askAi?: unknown}) =>
      (searchAskAiOff(options).configureWebpack as ConfigureWebpack)({}, false);
    expect(webpackOf({})).toEqual({resolve: {alias: {'open-ask-ai$': false, 'open-ask-ai/styles.css$': false}}});
    expect(webpackOf({askAi: {project: 'x'}})).toEqual({});
  });

  test('search-highlight-guard aliases the exact mark.js file the search plugin resolves to the guarded wrapper', () => {
    type Aliases = {resolve: {alias: Record<string, string>}};
    const {alias} = (searchHighlightGuard().configureWebpack as ConfigureWebpack<Aliases>)({}, false).resolve;
    const guarded = expect.stringMatching(/src\/theme\/SearchBar\/guardedMark\.ts$/);
    expect(Object.entries(alias)).toEqual([[`${require.resolve('mark.js')}$`, guarded]]);
    expect(existsSync(Object.values(alias)[0]!)).toBe(true);
  });

  test("search-code-terms finds the dotted names and their tails inside a code token, and nothing in prose; the search plugin's index builder finds a method and an option named inside code", () => {
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
    // Built with the search plugin's own builder, as its postBuild does.
    const {buildIndex} = require('@easyops-cn/docusaurus-search-local/dist/server/server/utils/buildIndex');
    const options = {language: ['en'], removeDefaultStopWordFilter: [], removeDefaultStemmer: false};
    const indexOf = (text: string): {search(query: string): unknown[]} =>
      buildIndex([[{i: 1, t: text}]], options)[0].index;
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
