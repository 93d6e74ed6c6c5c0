/**
 * Leaves the search plugin's optional Ask AI widget out while its `askAi` option is unset: the plugin
 * imports it lazily, but Docusaurus merges its CSS into every page's stylesheet. Why: the CSS budget
 * (BENCHMARKS.md, "Bytes shipped"); the plugin's newer releases leave throwing stubs instead.
 */
import type {LoadContext, Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'search-ask-ai-off';

const SEARCH_THEME = '@easyops-cn/docusaurus-search-local';

/** True when the search theme is configured with an `askAi` option. */
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
