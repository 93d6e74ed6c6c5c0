/**
 * Rspack's `defaultVendors` split (Docusaurus turns off only `default`) makes the search worker fetch lunr in a second
 * download whose failure reaches the page; this turns it off. Why: BENCHMARKS.md, "Bytes shipped".
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
