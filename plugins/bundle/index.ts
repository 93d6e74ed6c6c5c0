// Every change to the bundler's output, in one place to re-check on upgrade. Why: BENCHMARKS.md, "Bytes shipped".
import type {Plugin} from '@docusaurus/types';

import cssPrune from './css-prune';
import noClientPrism from './no-client-prism';
import {dropNotFoundOwnUrl} from './not-found-head';
import prefetchOnce from './prefetch-once';
import selfContainedWorkers from './self-contained-workers';

export default function bundlePlugin(): Plugin {
  const prism = noClientPrism();
  const once = prefetchOnce();
  const workers = selfContainedWorkers();
  const prune = cssPrune();
  return {
    name: 'bundle',
    configureWebpack(...args) {
      // Disjoint keys: no-client-prism and prefetch-once set `resolve.alias`, self-contained-workers `optimization`.
      const alias = {
        ...prism.configureWebpack!(...args)?.resolve?.alias,
        ...once.configureWebpack!(...args)?.resolve?.alias,
      };
      return {resolve: {alias}, ...workers.configureWebpack!(...args)};
    },
    // In turn: both rewrite built HTML.
    async postBuild(props) {
      await prune.postBuild!(props);
      await dropNotFoundOwnUrl(props.outDir);
    },
  };
}
