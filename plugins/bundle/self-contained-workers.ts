/**
 * Rspack's `defaultVendors` split would turn the search worker into a stub that fetches lunr with
 * importScripts(): two sequential downloads, and a failed second one throws into the page.
 * Why: BENCHMARKS.md, "Bytes shipped".
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
