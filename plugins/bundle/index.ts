// Every change to the bundler's output, in one place to re-check on upgrade. Why: BENCHMARKS.md, "Bytes shipped".
import type {Plugin} from '@docusaurus/types';

import cssPrune from './css-prune';
import noClientPrism from './no-client-prism';
import selfContainedWorkers from './self-contained-workers';

export default function bundlePlugin(): Plugin {
  const prism = noClientPrism();
  const workers = selfContainedWorkers();
  const prune = cssPrune();
  return {
    name: 'bundle',
    configureWebpack(...args) {
      // Disjoint keys: no-client-prism sets `resolve`, self-contained-workers `optimization`.
      return {...prism.configureWebpack!(...args), ...workers.configureWebpack!(...args)};
    },
    postBuild: prune.postBuild,
  };
}
