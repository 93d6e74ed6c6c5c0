import {existsSync, readFileSync} from 'node:fs';
import {expect, test} from '@playwright/test';
import type {LoadContext} from '@docusaurus/types';

import searchQueryTerms, {pluginTokenizeModule} from './query-terms';
import {tokenize} from './tokenize';

const SEARCH = '@easyops-cn/docusaurus-search-local';
const contextWith = (language: string | string[]) =>
  ({siteConfig: {themes: [[SEARCH, {language}]]}}) as unknown as LoadContext;

test.describe('search-query-terms plugin', {tag: '@viewport-independent'}, () => {
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

  test("replaces the module the plugin's worker imports, and only for English", () => {
    const original = pluginTokenizeModule();
    expect(existsSync(original)).toBe(true);
    // The worker imports it by this relative path; a new plugin layout must fail here, not silently.
    expect(readFileSync(original.replace(/utils[\\/]tokenize\.js$/, 'theme/worker.js'), 'utf8')).toContain(
      'from "../utils/tokenize"',
    );
    const alias = (
      searchQueryTerms(contextWith(['en'])).configureWebpack as () => {resolve: {alias: Record<string, string>}}
    )().resolve.alias;
    expect(Object.keys(alias)).toEqual([`${original}$`, `${original.replace(/\.js$/, '')}$`]);
    expect(() => searchQueryTerms(contextWith(['en', 'zh']))).toThrow(/English queries only/);
  });
});
