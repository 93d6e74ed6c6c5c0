// The search plugin's client modules that lib/search/sharded-index.ts and ./worker.ts import; it ships no types for them.
declare module 'lunr';

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/smartQueries' {
  export function smartQueries(tokens: string[], zhDictionary: string[]): unknown[];
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/sortSearchResults' {
  export function sortSearchResults(results: object[]): void;
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/processTreeStatusOfSearchResults' {
  export function processTreeStatusOfSearchResults(results: object[]): void;
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGeneratedConstants' {
  export const searchIndexUrl: string;
}
