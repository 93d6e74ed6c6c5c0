import {test, expect} from '@playwright/test';
import type {LoadContext} from '@docusaurus/types';

import searchAskAiOff, {asksAi} from './ask-ai-off';

const SEARCH = '@easyops-cn/docusaurus-search-local';
const contextWith = (themes: LoadContext['siteConfig']['themes']) => ({siteConfig: {themes}}) as unknown as LoadContext;
const webpackOf = (context: LoadContext) =>
  (searchAskAiOff(context).configureWebpack as (config: object, isServer: boolean) => object)({}, false);

test.describe('search-ask-ai-off plugin', () => {
  test('knows whether the search theme is given an askAi option', () => {
    expect(asksAi([[SEARCH, {language: ['en']}]])).toBe(false);
    expect(asksAi([SEARCH])).toBe(false);
    expect(asksAi([[SEARCH, {askAi: {project: 'x'}}]])).toBe(true);
    expect(asksAi([['some-other-theme', {askAi: {}}]])).toBe(false);
  });

  test('aliases the widget and its CSS to an empty module only while askAi is unset', () => {
    expect(webpackOf(contextWith([[SEARCH, {}]]))).toEqual({
      resolve: {alias: {'open-ask-ai$': false, 'open-ask-ai/styles.css$': false}},
    });
    expect(webpackOf(contextWith([[SEARCH, {askAi: {project: 'x'}}]]))).toEqual({});
  });
});
