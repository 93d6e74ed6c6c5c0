import {test, expect} from '@playwright/test';

import searchAskAiOff from './ask-ai-off';

const webpackOf = (options: {askAi?: unknown}) =>
  (searchAskAiOff(options).configureWebpack as (config: object, isServer: boolean) => object)({}, false);

test.describe('search-ask-ai-off plugin', () => {
  test('aliases the widget and its CSS to an empty module only while askAi is unset', () => {
    expect(webpackOf({})).toEqual({
      resolve: {alias: {'open-ask-ai$': false, 'open-ask-ai/styles.css$': false}},
    });
    expect(webpackOf({askAi: {project: 'x'}})).toEqual({});
  });
});
