import type {PluginOptions as SearchLocalOptions} from '@easyops-cn/docusaurus-search-local';

import {SEARCH} from '../src/constants/site';

// The search box's options (also read by the MCP server, whose search_docs ranks as the box does).
export const searchOptions = {
  indexDocs: true,
  indexBlog: false,
  indexPages: false,
  docsRouteBasePath: '/',
  // Content-hashed index file names: cacheable forever, never stale.
  hashed: 'filename',
  language: ['en'],
  highlightSearchTermsOnTargetPage: true,
  searchResultLimits: SEARCH.resultLimit,
  searchResultContextMaxLength: SEARCH.contextMaxLength,
  explicitSearchResultPath: true,
  // The SearchBar wrap owns Cmd/Ctrl+K and its hint: they must work while the box is loading.
  searchBarShortcut: false,
  // The webhook payloads and the Postman collection's scripts are code generated from the contract, not prose:
  // indexed, they would grow every reader's index and put the sections showing them first for most queries.
  ignoreCssSelectors: ['.webhook-event-catalogue pre', '.postman-script pre'],
} satisfies SearchLocalOptions;
