/**
 * Measured: without it mark.js (5,051 B gzip) is back in main.js (route JS 133,144 → 138,171 B gzip)
 * and a highlight error escapes as an uncaught page error (tests/search.spec.ts "when highlighting
 * fails" fails).
 * Points the search plugin's mark.js import at src/theme/SearchBar/guardedMark.ts, which loads mark.js
 * on first use and logs highlight errors (spec §8) instead of throwing them. The SearchBar wrap cannot
 * do it: the plugin calls mark.js inside its own timer.
 */
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'search-highlight-guard';

export default function searchHighlightGuard(): Plugin {
  return {
    name: PLUGIN_NAME,
    configureWebpack() {
      // The plugin imports mark.js by its resolved path (`require.resolve('mark.js')`).
      const markJs = require.resolve('mark.js');
      return {
        resolve: {
          alias: {[`${markJs}$`]: path.resolve(__dirname, '../../src/theme/SearchBar/guardedMark.ts')},
        },
      };
    },
  };
}
