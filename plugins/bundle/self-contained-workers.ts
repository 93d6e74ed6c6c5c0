/**
 * Measured: with it the search worker is one file of 11,838 B gzip; without it Rspack's built-in
 * `defaultVendors` split makes the worker a 903 B stub that fetches lunr (11,655 B) with
 * importScripts(): 12,558 B in two sequential downloads, and a failed second download reaches the
 * page as an uncaught error. webpack never split workers. Docusaurus already turns off the built-in
 * `default` group and shares code through its own `common` group; this turns off `defaultVendors`
 * too, for both bundlers. Route JS is unaffected (tests/budgets.spec.ts).
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
