/**
 * What we change in @easyops-cn/docusaurus-search-local, in one place to re-check when it or
 * Docusaurus is upgraded: the index's tokens (code-terms), the worker's query words (query-terms),
 * the unused Ask AI widget left out (ask-ai-off) and highlight errors logged, not thrown
 * (highlight-guard). Each file says at its top what it fixes and what it measured.
 */
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
