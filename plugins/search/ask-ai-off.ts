/**
 * The unused "Ask AI" widget is imported lazily, but Docusaurus merges its CSS into the one render-blocking
 * stylesheet and no option leaves it out; aliased away while `askAi` is unset. Why: BENCHMARKS.md, "Bytes shipped".
 */
import type {LoadContext, Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'search-ask-ai-off';

const SEARCH_THEME = '@easyops-cn/docusaurus-search-local';

export function asksAi(themes: LoadContext['siteConfig']['themes']): boolean {
  return themes.some(
    (entry) =>
      Array.isArray(entry) &&
      entry[0] === SEARCH_THEME &&
      typeof entry[1] === 'object' &&
      entry[1] !== null &&
      (entry[1] as {askAi?: unknown}).askAi !== undefined,
  );
}

export default function searchAskAiOff(context: LoadContext): Plugin {
  const enabled = !asksAi(context.siteConfig.themes);
  return {
    name: PLUGIN_NAME,
    configureWebpack() {
      return enabled ? {resolve: {alias: {'open-ask-ai$': false, 'open-ask-ai/styles.css$': false}}} : {};
    },
  };
}
