import {test, expect} from '@playwright/test';
import {existsSync} from 'node:fs';

import searchHighlightGuard from './highlight-guard';

test.describe('search-highlight-guard plugin', () => {
  test('aliases the exact mark.js file the search plugin resolves to the guarded wrapper', () => {
    const configureWebpack = searchHighlightGuard().configureWebpack as (
      config: object,
      isServer: boolean,
    ) => {resolve: {alias: Record<string, string>}};
    const {alias} = configureWebpack({}, false).resolve;
    const entries = Object.entries(alias);
    expect(entries).toHaveLength(1);
    const [from, to] = entries[0]!;
    expect(from).toBe(`${require.resolve('mark.js')}$`);
    expect(to).toMatch(/src\/theme\/SearchBar\/guardedMark\.ts$/);
    expect(existsSync(to)).toBe(true);
  });
});
