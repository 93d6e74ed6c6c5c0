/**
 * Points the search plugin's mark.js at src/theme/SearchBar/guardedMark.ts, which loads mark.js on
 * first use and logs highlight errors (spec §8) instead of throwing them; a wrap cannot, as the plugin
 * calls mark.js in its own timer. Why: bytes in main.js (BENCHMARKS.md, "Bytes shipped").
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
