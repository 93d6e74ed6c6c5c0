/**
 * Keeps Web Workers self-contained (issue 6, with Docusaurus Faster). Rspack's built-in `defaultVendors`
 * split moved lunr out of the search plugin's worker into a chunk shared with the search page, which the
 * worker then fetched with importScripts(): when that second download failed, the worker threw an uncaught
 * error into the page (tests/failures.spec.ts). webpack never split the worker. Docusaurus already turns off
 * the built-in `default` group and shares code through its own `common` group; this turns off
 * `defaultVendors` too, for both bundlers. First-load JS is unaffected (tests/budgets.spec.ts).
 */
import type {Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'self-contained-workers';

export default function selfContainedWorkers(): Plugin {
  return {
    name: PLUGIN_NAME,
    configureWebpack(_config, isServer) {
      return isServer ? {} : {optimization: {splitChunks: {cacheGroups: {defaultVendors: false}}}};
    },
  };
}
