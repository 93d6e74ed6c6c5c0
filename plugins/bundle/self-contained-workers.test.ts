import {test, expect} from '@playwright/test';

import selfContainedWorkers from './self-contained-workers';

test.describe('self-contained-workers plugin', () => {
  const configureWebpack = selfContainedWorkers().configureWebpack as (config: object, isServer: boolean) => object;

  test('turns off the defaultVendors split of the client bundle only', () => {
    expect(configureWebpack({}, false)).toEqual({optimization: {splitChunks: {cacheGroups: {defaultVendors: false}}}});
    expect(configureWebpack({}, true)).toEqual({});
  });
});
