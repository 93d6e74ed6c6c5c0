// Searches an index split by ./index-parts.ts, loading only the parts a query needs.
import lunr from 'lunr';
import {smartQueries} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/smartQueries';
import {sortSearchResults} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/sortSearchResults';
import {processTreeStatusOfSearchResults} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/processTreeStatusOfSearchResults';

import {
  partOf,
  type InvertedEntry,
  type Manifest,
  type SearchDocument,
  type SerializedIndex,
  type SplitType,
  type TermPart,
} from './index-parts';
import {docsWording, historyTopic, topicWords} from './variants';

type SmartTerm = {value: string; wildcard: number; presence: number; editDistance?: number};
type QueryBuilder = {term(value: string, options: object): void; clauses: LunrClause[]};
type LunrClause = {term: string; usePipeline: boolean; fields: string[]};
type LunrResult = {ref: string; score: number; matchData: {metadata: object}};
type LunrIndex = {query(build: (query: QueryBuilder) => void): LunrResult[]};
/**
 * Awaited between the steps of a search (each group of queries, each word): a server passes one that yields to
 * its event loop and throws once the caller has gone, so an abandoned search stops at its next step.
 */
export type Checkpoint = () => Promise<void>;
const noCheckpoint: Checkpoint = () => Promise.resolve();

type Picked = {type: number; result: LunrResult; tokens: string[]};
type TokenSet = {intersect(other: TokenSet): TokenSet; toArray(): string[]};
const lunrApi = lunr as unknown as {
  Index: {load(index: SerializedIndex): LunrIndex};
  Query: (new (fields: string[]) => QueryBuilder) & {wildcard: {NONE: number}; presence: {REQUIRED: number}};
  stopWordFilter(word: string): string | undefined;
  Pipeline: {load(labels: string[]): {runString(term: string, metadata: object): string[]}};
  TokenSet: {fromArray(terms: string[]): TokenSet; fromClause(clause: LunrClause): TokenSet};
};

const REQUIRED = lunrApi.Query.presence.REQUIRED;
/** Hits of one page among the whole matches at most (more pages in the list; the partial matches may add more). */
const PER_PAGE = 2;
/** The kinds that describe a whole page: title, description, keywords. */
const PAGE_TYPES = [0, 2, 3];
/** How much a page whose title, description or keywords hold all the query's words raises its hits' rank. */
const PAGE_WORDS_WEIGHT = 0.5;

/** Consecutive queries of the same shape: as many words, the same wildcards and edit distances. */
function groupByShape<Q extends {term: SmartTerm[]}>(queries: Q[]): Q[][] {
  const shape = ({term}: Q) =>
    JSON.stringify([term.length, term.map(({wildcard, editDistance}) => [wildcard, editDistance ?? 0])]);
  const groups: Q[][] = [];
  for (const query of queries) {
    const last = groups.at(-1);
    if (last && shape(last[0]!) === shape(query)) last.push(query);
    else groups.push([query]);
  }
  return groups;
}

/** The words searched alone: each once, no stop words. */
function searchedWords(tokens: string[]): string[] {
  return [...new Set(tokens.filter((word) => lunrApi.stopWordFilter(word) !== undefined))];
}

export type SearchResult = {
  document: SearchDocument;
  type: number;
  page: SearchDocument | false | undefined;
  metadata: object;
  tokens: string[];
  score: number;
};

function addTerms(query: QueryBuilder, term: SmartTerm[]): void {
  for (const item of term) {
    query.term(item.value, {
      wildcard: item.wildcard,
      presence: item.presence,
      ...(item.editDistance ? {editDistance: item.editDistance} : null),
    });
  }
}

/** One split type: its vocabulary, and the term parts loaded so far as one lunr index. */
class SplitTypeIndex {
  private readonly vocabulary: TokenSet;
  private readonly pipeline: {runString(term: string, metadata: object): string[]};
  private readonly positions: Map<string, number>;
  private readonly loading = new Map<number, Promise<TermPart>>();
  private readonly loaded = new Map<number, TermPart>();
  private index: LunrIndex | null = null;

  constructor(
    private readonly split: SplitType,
    private readonly fetchPart: (file: string) => Promise<unknown>,
  ) {
    this.vocabulary = lunrApi.TokenSet.fromArray(split.terms);
    this.pipeline = lunrApi.Pipeline.load(split.index.pipeline);
    this.positions = new Map(split.terms.map((word, position) => [word, position]));
  }

  /** Loads the term parts these words need (each once); a part that fails leaves its terms out of this search. */
  async load(term: SmartTerm[]): Promise<void> {
    const needed = new Set(
      this.expandedTerms(term).map((word) => partOf(this.split.termParts, this.positions.get(word)!)),
    );
    const missing = [...needed].filter((part) => !this.loaded.has(part));
    if (missing.length === 0 && this.index) return;
    await Promise.allSettled(
      missing.map(async (part) => {
        let loading = this.loading.get(part);
        if (!loading) {
          loading = this.fetchPart(this.split.termParts[part]!.file) as Promise<TermPart>;
          this.loading.set(part, loading);
          // Fetched again by the next search that needs it.
          loading.catch(() => this.loading.delete(part));
        }
        this.loaded.set(part, await loading);
      }),
    );
    this.index = null;
  }

  /** The lunr index over the loaded parts. */
  current(): LunrIndex {
    if (!this.index) {
      const {terms, termParts} = this.split;
      const parts = [...this.loaded].sort(([a], [b]) => a - b);
      const vectors = new Map<string, number[][]>();
      for (const [, part] of parts) {
        for (const [ref, elements] of part.fieldVectors) {
          const pairs = vectors.get(ref) ?? [];
          for (let k = 0; k < elements.length; k += 2) pairs.push([elements[k]!, elements[k + 1]!]);
          vectors.set(ref, pairs);
        }
      }
      this.index = lunrApi.Index.load({
        ...this.split.index,
        invertedIndex: parts.flatMap(([index, part]) =>
          part.postings.map((posting, k): InvertedEntry => [terms[termParts[index]!.first + k]!, posting]),
        ),
        fieldVectors: [...vectors].map(([ref, pairs]) => [ref, pairs.sort((a, b) => a[0]! - b[0]!).flat()]),
      });
    }
    return this.index;
  }

  /** The terms lunr would look up for these words: its own expansion (pipeline, wildcards, edit distance). */
  private expandedTerms(term: SmartTerm[]): string[] {
    const query = new lunrApi.Query(this.split.index.fields);
    addTerms(query, term);
    const expanded: string[] = [];
    for (const clause of query.clauses) {
      const words = clause.usePipeline ? this.pipeline.runString(clause.term, {fields: clause.fields}) : [clause.term];
      for (const word of words) {
        expanded.push(...this.vocabulary.intersect(lunrApi.TokenSet.fromClause({...clause, term: word})).toArray());
      }
    }
    return expanded;
  }
}

export class ShardedIndex {
  private readonly titles: LunrIndex;
  private readonly split: SplitTypeIndex[];
  /** Per type (titles first): a page's description and keywords share its title's id. */
  private readonly documents: Map<number, SearchDocument>[];
  private readonly documentParts = new Map<string, Promise<void>>();
  /** Ids of the documents on news pages (./index-parts.ts). */
  private readonly news: Set<number>;

  /** `fetchPart` reads a part by the name the manifest gives it. */
  constructor(
    private readonly manifest: Manifest,
    private readonly fetchPart: (file: string) => Promise<unknown>,
  ) {
    this.titles = lunrApi.Index.load(manifest.titles.index);
    this.split = manifest.split.map((split) => new SplitTypeIndex(split, fetchPart));
    this.documents = [
      new Map(manifest.titles.documents.map((document) => [document.i, document])),
      ...this.split.map(() => new Map()),
    ];
    this.news = new Set(manifest.news);
  }

  /**
   * The plugin's own search (its worker loop, search-local 0.54.1, theme/worker.js): every word, then the words
   * less one, fuzzier on the way. The hits are picked first (each query's parts of every type fetched together),
   * then their documents in one round.
   */
  async search(tokens: string[], limit: number): Promise<SearchResult[]> {
    const picked: Picked[] = [];
    await this.pick(tokens, limit, picked);
    return this.finish(picked);
  }

  /**
   * What the box and search_docs show: for a question about the docs' history, first what the news pages hold of
   * its topic; the plugin's search of the query without its question words, then whole, each in the docs' words
   * (./variants.ts) before as typed, each query's hits of one kind ranked by `rank`; when these fill less than the
   * list, the documents holding its rarest words after them.
   */
  async find(tokens: string[], limit: number, checkpoint: Checkpoint = noCheckpoint): Promise<SearchResult[]> {
    const picked: Picked[] = [];
    const topic = topicWords(tokens);
    const forms = [...(topic ? docsWording(topic) : []), ...docsWording(tokens)];
    const words = searchedWords(forms.flat());
    const pageWords = await this.pageWords(words, checkpoint);
    const rank = (results: LunrResult[]) => this.rank(results, pageWords);
    const history = historyTopic(tokens);
    if (history) {
      const newsOnly = (results: LunrResult[]) => rank(results).filter((result) => this.isNews(result));
      await this.pick(history, limit, picked, newsOnly, checkpoint);
    }
    for (const form of forms) {
      await this.pick(form, limit, picked, rank, checkpoint);
      if (picked.length >= limit) break;
    }
    const partial: Picked[] = [];
    if (picked.length < limit) {
      await this.pickPartial(words, limit - picked.length, picked, partial, pageWords, checkpoint);
    }
    await checkpoint();
    // Sorted apart: a partial match never moves a whole match down (the plugin groups hits under their page).
    const [whole, some] = await Promise.all([this.finish(picked), this.finish(partial)]);
    return [...whole, ...some];
  }

  private async pick(
    tokens: string[],
    limit: number,
    picked: Picked[],
    rank?: (results: LunrResult[]) => LunrResult[],
    checkpoint: Checkpoint = noCheckpoint,
  ): Promise<void> {
    if (tokens.length === 0) return;
    // By id alone, as the plugin: a page's description and keywords share its title's id.
    const seen = new Set(picked.map(({result}) => result.ref));
    const queries = smartQueries(tokens, []) as {term: SmartTerm[]; tokens: string[]}[];
    // With `rank`, queries of one shape (the words less one, each word in turn) are searched together.
    const groups = rank ? groupByShape(queries) : queries.map((query) => [query]);
    search: for (const group of groups) {
      await checkpoint();
      await Promise.all(group.flatMap(({term}) => this.split.map((split) => split.load(term))));
      for (let type = 0; type <= this.split.length; type++) {
        const found: {result: LunrResult; tokens: string[]}[] = [];
        for (const {term, tokens: queryTokens} of group) {
          for (const result of this.indexOf(type).query((query) => addTerms(query, term))) {
            const other = found.find((hit) => hit.result.ref === result.ref);
            if (!other) found.push({result, tokens: queryTokens});
            else if (result.score > other.result.score) Object.assign(other, {result, tokens: queryTokens});
          }
        }
        const byRef = new Map(found.map((hit) => [hit.result, hit.tokens]));
        const results = rank ? rank(found.map(({result}) => result)) : found.map(({result}) => result);
        // As the plugin: the query's first `limit` hits of this kind; with `rank`, at most PER_PAGE of a page.
        for (const result of rank ? results : results.slice(0, limit)) {
          if (picked.length >= limit) break;
          if (seen.has(result.ref) || (rank && this.shownOf(picked, Number(result.ref)) >= PER_PAGE)) continue;
          seen.add(result.ref);
          picked.push({type, result, tokens: byRef.get(result)!});
        }
        if (picked.length >= limit) break search;
      }
    }
  }

  /**
   * The hits of one query and kind, ranked: those on news pages last (an entry names a topic, rarely answers
   * it), then by score, raised by the share of the query's words that their page's title, description or
   * keywords hold (a section of the page about the topic before a section that mentions it).
   */
  private rank(results: LunrResult[], pageWords: Map<number, number>): LunrResult[] {
    const keyed = results.map((result) => ({
      result,
      news: this.isNews(result),
      score: result.score * this.pageBoost(result, pageWords),
    }));
    keyed.sort((a, b) => Number(a.news) - Number(b.news) || b.score - a.score);
    return keyed.map(({result}) => result);
  }

  /** How much a hit is raised for the share of the query's words its page's title, description or keywords hold. */
  private pageBoost(result: LunrResult, pageWords: Map<number, number>): number {
    const page = this.pageOf(Number(result.ref));
    return 1 + PAGE_WORDS_WEIGHT * (page === undefined ? 0 : (pageWords.get(page) ?? 0));
  }

  /** The share of the words each page's title, description or keywords hold. */
  private async pageWords(words: string[], checkpoint: Checkpoint): Promise<Map<number, number>> {
    const shares = new Map<number, number>();
    for (const word of words) {
      await checkpoint();
      const term: SmartTerm[] = [{value: word, wildcard: lunrApi.Query.wildcard.NONE, presence: REQUIRED}];
      await Promise.all(PAGE_TYPES.map((type) => (type === 0 ? null : this.split[type - 1]!.load(term))));
      const pages = new Set(
        PAGE_TYPES.flatMap((type) => this.indexOf(type).query((query) => addTerms(query, term))).map(({ref}) =>
          Number(ref),
        ),
      );
      for (const page of pages) shares.set(page, (shares.get(page) ?? 0) + 1);
    }
    for (const [page, count] of shares) shares.set(page, count / words.length);
    return shares;
  }

  /** The page a document belongs to (a title, description or keywords document has its page's id). */
  private pageOf(id: number): number | undefined {
    const {pages} = this.manifest;
    if (!pages?.length || id < pages[0]!.first) return undefined;
    return pages[partOf(pages, id)]!.page;
  }

  /**
   * Documents holding some of the words, those whose words are rarest among the hits first (a question's common
   * words are held by many sections, its topic's by few), raised as whole matches are by the share of the words
   * their page's title, description or keywords hold; among equal weights news pages last, then by score. Each word
   * is looked up alone, so a word the docs lack costs only its own match.
   */
  private async pickPartial(
    words: string[],
    limit: number,
    picked: Picked[],
    partial: Picked[],
    pageWords: Map<number, number>,
    checkpoint: Checkpoint,
  ): Promise<void> {
    const found = new Map<string, Picked & {words: Set<string>}>();
    for (const word of words) {
      await checkpoint();
      const term: SmartTerm[] = [{value: word, wildcard: lunrApi.Query.wildcard.NONE, presence: REQUIRED}];
      await Promise.all(this.split.map((split) => split.load(term)));
      for (let type = 0; type <= this.split.length; type++) {
        for (const result of this.indexOf(type).query((query) => addTerms(query, term))) {
          const key = `${type}:${result.ref}`;
          const hit = found.get(key) ?? {
            type,
            result: {...result, score: 0, matchData: {metadata: {}}},
            tokens: [],
            words: new Set<string>(),
          };
          hit.words.add(word);
          hit.tokens.push(word);
          hit.result.score += result.score;
          hit.result.matchData.metadata = {...hit.result.matchData.metadata, ...result.matchData.metadata};
          found.set(key, hit);
        }
      }
    }
    // Each held word weighs its inverse document frequency among the hits.
    const holders = new Map<string, number>();
    for (const hit of found.values()) for (const word of hit.words) holders.set(word, (holders.get(word) ?? 0) + 1);
    const idf = new Map([...holders].map(([word, count]) => [word, Math.log(1 + found.size / count)]));
    const ranked = [...found.values()]
      .map((hit) => ({
        ...hit,
        weight: [...hit.words].reduce((sum, word) => sum + idf.get(word)!, 0) * this.pageBoost(hit.result, pageWords),
        news: this.isNews(hit.result),
      }))
      .sort((a, b) => b.weight - a.weight || Number(a.news) - Number(b.news) || b.result.score - a.result.score);
    const seen = new Set(picked.map(({result}) => result.ref));
    for (const {type, result, tokens: hitTokens} of ranked) {
      if (partial.length >= limit) break;
      if (seen.has(result.ref)) continue;
      seen.add(result.ref);
      partial.push({type, result, tokens: hitTokens});
    }
  }

  /** How many picked hits are on the page of document `id`. */
  private shownOf(picked: Picked[], id: number): number {
    const page = this.pageOf(id);
    return page === undefined ? 0 : picked.filter(({result}) => this.pageOf(Number(result.ref)) === page).length;
  }

  private isNews(result: LunrResult): boolean {
    const page = this.pageOf(Number(result.ref));
    return page !== undefined && this.news.has(page);
  }

  private indexOf(type: number): LunrIndex {
    return type === 0 ? this.titles : this.split[type - 1]!.current();
  }

  private async finish(picked: Picked[]): Promise<SearchResult[]> {
    await Promise.all(
      picked.map(({type, result}) => (type === 0 ? null : this.loadDocument(type - 1, Number(result.ref)))),
    );
    const results: SearchResult[] = [];
    for (const {type, result, tokens: queryTokens} of picked) {
      // A document whose part failed to load is left out of this search.
      const document = this.documents[type]!.get(Number(result.ref));
      if (!document) continue;
      results.push({
        document,
        type,
        page: type !== 0 && this.manifest.titles.documents.find((doc) => doc.i === document.p),
        metadata: result.matchData.metadata,
        tokens: queryTokens,
        score: result.score,
      });
    }
    sortSearchResults(results);
    processTreeStatusOfSearchResults(results);
    return results;
  }

  private loadDocument(split: number, id: number): Promise<void> | null {
    const documents = this.documents[split + 1]!;
    if (documents.has(id)) return null;
    const {documentParts} = this.manifest.split[split]!;
    const file = documentParts[partOf(documentParts, id)]!.file;
    let loading = this.documentParts.get(file);
    if (!loading) {
      loading = (this.fetchPart(file) as Promise<SearchDocument[]>).then((loaded) => {
        for (const document of loaded) documents.set(document.i, document);
      });
      this.documentParts.set(file, loading);
      loading.catch(() => this.documentParts.delete(file));
    }
    return loading.catch(() => undefined);
  }
}
