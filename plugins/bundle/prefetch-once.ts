/**
 * Docusaurus's Link prefetches the chunks of every route a link in view leads to, parents' chunks included, and
 * asks again for each route: one page inserted hundreds of `<link rel="prefetch">` elements for a few distinct
 * files. This points core's prefetch helper at one that asks once per file.
 * Why: BENCHMARKS.md, "Code off screen skips rendering; each chunk prefetched once".
 */
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

// core's client/docusaurus.js imports './prefetch'; the resolver matches the alias on that request made absolute.
const CORE_PREFETCH = path.join(path.dirname(require.resolve('@docusaurus/core/package.json')), 'lib/client/prefetch');

export const ONCE = path.join(__dirname, 'prefetch-once-client.ts');

export default function prefetchOnce(): Plugin {
  return {
    name: 'prefetch-once',
    configureWebpack() {
      return {resolve: {alias: {[`${CORE_PREFETCH}$`]: ONCE}}};
    },
  };
}
