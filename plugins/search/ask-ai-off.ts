/**
 * Measured (gzip -9, this build): without it every page's CSS grows from 14,342 to 17,414 B, past the
 * 15 KiB budget goal, and the build gains two chunks of 113,250 B that no page loads.
 * Leaves the search plugin's optional "Ask AI" widget (open-ask-ai) out of the build while its `askAi`
 * option is unset. The plugin imports the widget lazily, but Docusaurus merges every CSS file into the
 * one render-blocking stylesheet. Aliasing both to `false` (an empty module) fixes that; with `askAi`
 * set in the search theme's options this plugin does nothing.
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
