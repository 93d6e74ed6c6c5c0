/**
 * The unused "Ask AI" widget is imported lazily, but Docusaurus merges its CSS into the one render-blocking
 * stylesheet and no option leaves it out; aliased away while `askAi` is unset. Why: BENCHMARKS.md, "Bytes shipped".
 */
import type {Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'search-ask-ai-off';

export default function searchAskAiOff(options: {askAi?: unknown}): Plugin {
  const enabled = options.askAi === undefined;
  return {
    name: PLUGIN_NAME,
    configureWebpack() {
      return enabled ? {resolve: {alias: {'open-ask-ai$': false, 'open-ask-ai/styles.css$': false}}} : {};
    },
  };
}
