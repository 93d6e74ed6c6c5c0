// Every change to @easyops-cn/docusaurus-search-local, in one place to re-check on upgrade.
import type {LoadContext, Plugin} from '@docusaurus/types';

import searchAskAiOff from './ask-ai-off';
import searchCodeTerms from './code-terms';
import searchHighlightGuard from './highlight-guard';
import searchQueryTerms from './query-terms';

type Aliases = {resolve?: {alias?: Record<string, string | false>}};

export default function searchPlugin(context: LoadContext): Plugin {
  const parts = [searchCodeTerms(), searchQueryTerms(context), searchAskAiOff(context), searchHighlightGuard()];
  return {
    name: 'search',
    configureWebpack(...args) {
      // Each part only adds module aliases.
      const aliases = parts.map(
        (part) => (part.configureWebpack?.(...args) as Aliases | undefined)?.resolve?.alias ?? {},
      );
      return {resolve: {alias: Object.assign({}, ...aliases)}};
    },
  };
}
