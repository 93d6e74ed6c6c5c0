// Every change to the bundler's output, in one place to re-check on upgrade. Why: BENCHMARKS.md, "Bytes shipped".
import type {LoadContext, Plugin} from '@docusaurus/types';

import cssPrune from './css-prune';
import leanPrism from './lean-prism';
import type {PluginOptions} from './options';
import selfContainedWorkers from './self-contained-workers';

export {validateOptions, type Options, type PluginOptions} from './options';

export default function bundlePlugin(context: LoadContext, options: PluginOptions): Plugin {
  const prism = leanPrism(context, {languages: options.prismLanguages});
  const workers = selfContainedWorkers();
  const prune = cssPrune();
  return {
    name: 'bundle',
    configureWebpack(...args) {
      // Disjoint keys: lean-prism sets `resolve`, self-contained-workers `optimization`.
      return {...prism.configureWebpack!(...args), ...workers.configureWebpack!(...args)};
    },
    postBuild: prune.postBuild,
  };
}
