// Stands in for the search plugin's theme/worker.js (same Comlink API): it loads the index in parts
// (lib/search/sharded-index.ts) and reads queries with lib/search/tokenize.ts.
import * as Comlink from 'comlink';
import {searchIndexUrl} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGeneratedConstants';

import {isManifest} from '../../lib/search/index-parts';
import {newestSearchOnly} from '../../lib/search/newest-search';
import {ShardedIndex, type SearchResult} from '../../lib/search/sharded-index';
import {tokenize} from '../../lib/search/tokenize';

const loaded = new Map<string, Promise<ShardedIndex>>();

async function fetchJson(url: URL): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status}`);
  return response.json();
}

async function load(baseUrl: string, searchContext: string): Promise<ShardedIndex> {
  const path = `${baseUrl}${searchIndexUrl.replace('{dir}', searchContext ? `-${searchContext.replace(/\//g, '-')}` : '')}`;
  const url = new URL(path, location.origin);
  // As the plugin's worker: never an index from another origin.
  if (url.origin !== location.origin) throw new Error('Unexpected index URL');
  const manifest = await fetchJson(url);
  if (!isManifest(manifest)) throw new Error(`${url.pathname} is not a split search index`);
  return new ShardedIndex(manifest, (file) =>
    fetchJson(new URL(file, url)).catch((error: unknown) => {
      // Searches go on without the part (and fetch it again next time); the reason is only logged.
      console.warn('Search: could not load part of the index', error);
      throw error;
    }),
  );
}

function indexFor(baseUrl: string, searchContext: string): Promise<ShardedIndex> {
  const key = `${baseUrl}${searchContext}`;
  let index = loaded.get(key);
  if (!index) {
    index = load(baseUrl, searchContext);
    loaded.set(key, index);
  }
  return index;
}

// Per caller: the box and the search page (their limits differ) never answer each other's queries.
const newestOnlyOf = new Map<string, ReturnType<typeof newestSearchOnly<SearchResult[]>>>();
function newestOnly(baseUrl: string, searchContext: string, limit: number) {
  const key = JSON.stringify([baseUrl, searchContext, limit]);
  let run = newestOnlyOf.get(key);
  if (!run) {
    run = newestSearchOnly<SearchResult[]>();
    newestOnlyOf.set(key, run);
  }
  return run;
}

export class SearchWorker {
  async fetchIndexes(baseUrl: string, searchContext: string): Promise<void> {
    await indexFor(baseUrl, searchContext);
  }

  async search(baseUrl: string, searchContext: string, input: string, limit: number): Promise<SearchResult[]> {
    const tokens = tokenize(input);
    // A query of no words is a search too: it overtakes the ones before it.
    return newestOnly(
      baseUrl,
      searchContext,
      limit,
    )(async (checkpoint) =>
      tokens.length === 0 ? [] : (await indexFor(baseUrl, searchContext)).find(tokens, limit, checkpoint),
    );
  }
}

Comlink.expose(SearchWorker);
