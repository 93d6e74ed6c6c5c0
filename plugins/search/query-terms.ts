/**
 * The worker looks query words up as typed, but lunr stripped the punctuation around every indexed word, so
 * `lifetime?` found nothing; this aliases the worker's tokenizer to ./tokenize.ts. English only.
 */
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'search-query-terms';

const SEARCH_PLUGIN = '@easyops-cn/docusaurus-search-local';

export function pluginTokenizeModule(): string {
  return require.resolve(`${SEARCH_PLUGIN}/dist/client/client/utils/tokenize.js`);
}

export function searchLanguages(context: LoadContext): string[] {
  for (const theme of context.siteConfig.themes ?? []) {
    if (Array.isArray(theme) && theme[0] === SEARCH_PLUGIN) {
      const language = (theme[1] as {language?: string | string[]} | undefined)?.language ?? ['en'];
      return Array.isArray(language) ? language : [language];
    }
  }
  return [];
}

export default function searchQueryTerms(context: LoadContext): Plugin {
  const languages = searchLanguages(context);
  if (languages.some((language) => language !== 'en')) {
    throw new Error(
      `[${PLUGIN_NAME}] reads English queries only; the search plugin is set to ${languages.join(', ')}. Remove this plugin or extend ./tokenize.ts.`,
    );
  }
  const tokenize = pluginTokenizeModule();
  return {
    name: PLUGIN_NAME,
    configureWebpack() {
      const replacement = path.resolve(__dirname, 'tokenize.ts');
      // The worker imports it by a relative path: alias the resolved file, with and without its extension.
      return {resolve: {alias: {[`${tokenize}$`]: replacement, [`${tokenize.replace(/\.js$/, '')}$`]: replacement}}};
    },
  };
}
