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
  type TermPart,
} from './index-parts';

type SmartTerm = {value: string; wildcard: number; presence: number; editDistance?: number};
type QueryBuilder = {term(value: string, options: object): void; clauses: LunrClause[]};
type LunrClause = {term: string; usePipeline: boolean; fields: string[]};
type LunrResult = {ref: string; score: number; matchData: {metadata: object}};
type LunrIndex = {query(build: (query: QueryBuilder) => void): LunrResult[]};
type TokenSet = {intersect(other: TokenSet): TokenSet; toArray(): string[]};
const lunrApi = lunr as unknown as {
  Index: {load(index: SerializedIndex): LunrIndex};
  Query: new (fields: string[]) => QueryBuilder;
  Pipeline: {load(labels: string[]): {runString(term: string, metadata: object): string[]}};
  TokenSet: {fromArray(terms: string[]): TokenSet; fromClause(clause: LunrClause): TokenSet};
};

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

export class ShardedIndex {
  private readonly whole: {documents: SearchDocument[]; index: LunrIndex}[];
  private readonly vocabulary: TokenSet;
  private readonly pipeline: {runString(term: string, metadata: object): string[]};
  private readonly positions: Map<string, number>;
  private readonly termParts = new Map<number, Promise<TermPart>>();
  private readonly loadedTermParts = new Map<number, TermPart>();
  private readonly documents = new Map<number, SearchDocument>();
  private readonly documentParts = new Map<number, Promise<void>>();
  private content: LunrIndex | null = null;

  /** `fetchPart` reads a part by the name the manifest gives it. */
  constructor(
    private readonly manifest: Manifest,
    private readonly fetchPart: (file: string) => Promise<unknown>,
  ) {
    this.whole = manifest.whole.map(({documents, index}) => ({documents, index: lunrApi.Index.load(index)}));
    this.vocabulary = lunrApi.TokenSet.fromArray(manifest.content.terms);
    this.pipeline = lunrApi.Pipeline.load(manifest.content.index.pipeline);
    this.positions = new Map(manifest.content.terms.map((word, position) => [word, position]));
  }

  /** The search box's results: the plugin's worker loop (search-local 0.54.1, theme/worker.js). */
  async search(tokens: string[], limit: number): Promise<SearchResult[]> {
    if (tokens.length === 0) return [];
    const results: SearchResult[] = [];
    const types = this.whole.length + 1;
    search: for (const {term, tokens: queryTokens} of smartQueries(tokens, []) as {
      term: SmartTerm[];
      tokens: string[];
    }[]) {
      for (let type = 0; type < types; type++) {
        const isContent = type === this.whole.length;
        const index = isContent ? await this.contentFor(term) : this.whole[type]!.index;
        const found = index
          .query((query) => addTerms(query, term))
          .slice(0, limit)
          .filter((result) => !results.some((item) => item.document.i.toString() === result.ref))
          .slice(0, limit - results.length);
        if (isContent) await this.loadDocuments(found.map((result) => Number(result.ref)));
        const documents = isContent ? null : this.whole[type]!.documents;
        for (const result of found) {
          const document = documents
            ? documents.find((doc) => doc.i.toString() === result.ref)
            : this.documents.get(Number(result.ref));
          if (!document) continue;
          results.push({
            document,
            type,
            page: type !== 0 && this.whole[0]!.documents.find((doc) => doc.i === document.p),
            metadata: result.matchData.metadata,
            tokens: queryTokens,
            score: result.score,
          });
        }
        if (results.length >= limit) break search;
      }
    }
    sortSearchResults(results);
    processTreeStatusOfSearchResults(results);
    return results;
  }

  /** The terms lunr would look up for these words: its own expansion (pipeline, wildcards, edit distance). */
  private expandedTerms(term: SmartTerm[]): string[] {
    const query = new lunrApi.Query(this.manifest.content.index.fields);
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

  /** The content index over every term part these words need (loaded once each). */
  private async contentFor(term: SmartTerm[]): Promise<LunrIndex> {
    const {termParts} = this.manifest.content;
    const needed = new Set(this.expandedTerms(term).map((word) => partOf(termParts, this.positions.get(word)!)));
    const missing = [...needed].filter((part) => !this.loadedTermParts.has(part));
    if (missing.length > 0 || !this.content) {
      // A part that fails (offline, a deploy that replaced it) leaves its terms out of this search only.
      await Promise.allSettled(
        missing.map(async (part) => {
          let loading = this.termParts.get(part);
          if (!loading) {
            loading = this.fetchPart(termParts[part]!.file) as Promise<TermPart>;
            this.termParts.set(part, loading);
            // A failed part is fetched again by the next search.
            loading.catch(() => this.termParts.delete(part));
          }
          this.loadedTermParts.set(part, await loading);
        }),
      );
      this.content = this.loadedIndex();
    }
    return this.content;
  }

  private loadedIndex(): LunrIndex {
    const {terms, termParts} = this.manifest.content;
    const loaded = [...this.loadedTermParts].sort(([a], [b]) => a - b);
    const vectors = new Map<string, number[][]>();
    for (const [, part] of loaded) {
      for (const [ref, elements] of part.fieldVectors) {
        const pairs = vectors.get(ref) ?? [];
        for (let k = 0; k < elements.length; k += 2) pairs.push([elements[k]!, elements[k + 1]!]);
        vectors.set(ref, pairs);
      }
    }
    return lunrApi.Index.load({
      ...this.manifest.content.index,
      invertedIndex: loaded.flatMap(([index, part]) =>
        part.postings.map((posting, k): InvertedEntry => [terms[termParts[index]!.first + k]!, posting]),
      ),
      fieldVectors: [...vectors].map(([ref, pairs]) => [ref, pairs.sort((a, b) => a[0]! - b[0]!).flat()]),
    });
  }

  private async loadDocuments(ids: number[]): Promise<void> {
    const {documentParts} = this.manifest.content;
    const needed = new Set(ids.filter((id) => !this.documents.has(id)).map((id) => partOf(documentParts, id)));
    // A failed part leaves its results out of this search only (see contentFor).
    await Promise.allSettled(
      [...needed].map((part) => {
        let loading = this.documentParts.get(part);
        if (!loading) {
          loading = (this.fetchPart(documentParts[part]!.file) as Promise<SearchDocument[]>).then((documents) => {
            for (const document of documents) this.documents.set(document.i, document);
          });
          this.documentParts.set(part, loading);
          loading.catch(() => this.documentParts.delete(part));
        }
        return loading;
      }),
    );
  }
}
