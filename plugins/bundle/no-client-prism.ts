/**
 * Code is highlighted while the MDX compiles (plugins/remark/code-highlight), so the browser needs no Prism; but
 * theme-classic's client module still imports prism-react-renderer (core and thirty grammars) to hand it to
 * `@theme/prism-include-languages`. This points the bundles at an empty stand-in. Why: BENCHMARKS.md,
 * "Code highlighted at build time".
 */
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'no-client-prism';

export const STAND_IN = path.join(__dirname, 'prism-stand-in.ts');

export default function noClientPrism(): Plugin {
  return {
    name: PLUGIN_NAME,
    configureWebpack() {
      return {resolve: {alias: {'prism-react-renderer$': STAND_IN}}};
    },
  };
}
