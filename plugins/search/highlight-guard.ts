/**
 * The SearchBar wrap cannot catch highlight errors (the plugin calls mark.js in its own timer), so mark.js is aliased
 * to guardedMark.ts, which logs them and loads mark.js on first use. Why: BENCHMARKS.md, "Bytes shipped".
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
