/**
 * The search index in parts, so a first search downloads what it needs and not the whole index (which grows
 * with every page). The plugin writes one file of five lunr indexes (title, heading, description, keywords,
 * content). After the build the page titles stay whole in the plugin's file, with the vocabulary of each other
 * index; their postings are cut into parts by term range and their documents into parts by id. A search expands
 * its words against a vocabulary exactly as lunr would, loads only the parts holding those terms and the
 * documents it shows, and runs lunr on them: for the loaded terms the postings and vectors are the whole index's,
 * so scores, order and snippets are those of the unsplit index. The box's worker and the MCP server both search
 * through `ShardedIndex` (./sharded-index.ts) with the plugin's own query code.
 */
/** Where the parts go: content-hashed names under /assets/, so every host caches them for good. */
export const PARTS_DIR = 'assets/search-index';

/** The plugin's index file(s) in the build's root; each becomes a manifest. */
export const MANIFEST_FILE = /^search-index.*\.json$/;
/** Names the build's index file: a deploy that keeps the last build's files leaves its index beside it. */
export const CURRENT_INDEX_FILE = '.search-index';

export type SearchDocument = {i: number; t: string; u: string; h?: string; p?: number; s?: string; b?: string[]};
export type Posting = {_index: number} & Record<string, Record<string, object>>;
export type InvertedEntry = [term: string, posting: Posting];
export type FieldVector = [fieldRef: string, elements: number[]];
export type SerializedIndex = {
  version: string;
  fields: string[];
  fieldVectors: FieldVector[];
  invertedIndex: InvertedEntry[];
  pipeline: string[];
};
/** The plugin's index file: one part per document type, the content part last. */
export type IndexPart = {documents: SearchDocument[]; index: SerializedIndex};

/** One document type's index, split: its vocabulary here, its postings and documents in parts. */
export type SplitType = {
  index: Pick<SerializedIndex, 'version' | 'fields' | 'pipeline'>;
  /** Every term, sorted as lunr sorts them. */
  terms: string[];
  /** Term parts: each holds the postings of `terms` from its `first` (a position in `terms`) up to the next part's. */
  termParts: {first: number; file: string}[];
  /** Document parts: each holds the ids from its `first` up to the next part's. */
  documentParts: {first: number; file: string}[];
};

export type Manifest = {
  format: 'split-2';
  /** The page titles, whole: every result names its page. */
  titles: IndexPart;
  /** The other types (heading, description, keywords, content), in the plugin's order. */
  split: SplitType[];
  /** Runs of document ids and the page each belongs to, by `first` id: a hit's page before its document loads. */
  pages?: {first: number; page: number}[];
  /** The ids of news pages (front matter `news: true`, the changelog). */
  news?: number[];
};
/** Postings in the order of the manifest's `terms` (the terms themselves are there, once). */
export type TermPart = {postings: Posting[]; fieldVectors: FieldVector[]};

// Part sizes in JSON characters; what a part weighs compressed: BENCHMARKS.md, "Search at scale".
const TERM_PART_CHARS = 24_000;
const DOCUMENT_PART_CHARS = 24_000;

/** Cuts `items` into runs of about `budget` JSON characters. */
function runs<T>(items: T[], budget: number): T[][] {
  const cut: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = JSON.stringify(item).length;
    if (current.length > 0 && size + itemSize > budget) {
      cut.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += itemSize;
  }
  if (current.length > 0) cut.push(current);
  return cut;
}

function splitType({documents, index}: IndexPart, store: (json: string) => string): SplitType {
  const {invertedIndex, fieldVectors, ...header} = index;
  const entryRuns = runs(invertedIndex, TERM_PART_CHARS);
  const partOfTerm = new Map<number, number>();
  entryRuns.forEach((entries, part) => entries.forEach(([, posting]) => partOfTerm.set(posting._index, part)));
  // Each document's vector, cut along the same term ranges.
  const vectors: FieldVector[][] = entryRuns.map(() => []);
  for (const [ref, elements] of fieldVectors) {
    const byPart = new Map<number, number[]>();
    for (let k = 0; k < elements.length; k += 2) {
      const part = partOfTerm.get(elements[k]!)!;
      byPart.set(part, [...(byPart.get(part) ?? []), elements[k]!, elements[k + 1]!]);
    }
    for (const [part, partElements] of byPart) vectors[part]!.push([ref, partElements]);
  }
  let position = 0;
  const termParts = entryRuns.map((entries, part) => {
    const termPart: TermPart = {postings: entries.map(([, posting]) => posting), fieldVectors: vectors[part]!};
    const first = position;
    position += entries.length;
    return {first, file: store(JSON.stringify(termPart))};
  });
  const sorted = [...documents].sort((a, b) => a.i - b.i);
  const documentParts = runs(sorted, DOCUMENT_PART_CHARS).map((run) => ({
    first: run[0]!.i,
    file: store(JSON.stringify(run)),
  }));
  return {index: header, terms: invertedIndex.map(([term]) => term), termParts, documentParts};
}

/**
 * Splits the plugin's index: titles stay whole, every other type is split. `store` writes one part (JSON text)
 * and returns the name the manifest gives it, relative to the manifest. `newsPages`: the URLs of news pages.
 */
export function splitIndex(
  parts: IndexPart[],
  store: (json: string) => string,
  newsPages: readonly string[] = [],
): Manifest {
  const [titles, ...rest] = parts;
  const pages: {first: number; page: number}[] = [];
  const byId = new Map(
    parts.flatMap(({documents}) => documents.map((document) => [document.i, document.p ?? document.i])),
  );
  for (const [id, page] of [...byId].sort(([a], [b]) => a - b)) {
    if (pages.at(-1)?.page !== page) pages.push({first: id, page});
  }
  return {
    format: 'split-2',
    titles: titles!,
    split: rest.map((part) => splitType(part, store)),
    pages,
    news: titles!.documents.filter(({u}) => newsPages.includes(u)).map(({i}) => i),
  };
}

export function isManifest(json: unknown): json is Manifest {
  return typeof json === 'object' && json !== null && (json as Manifest).format === 'split-2';
}

/** The last part whose `first` is at most `key` (parts are sorted by `first`). */
export function partOf<K extends string | number>(parts: {first: K}[], key: K): number {
  let low = 0;
  let high = parts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (parts[middle]!.first <= key) low = middle;
    else high = middle - 1;
  }
  return low;
}
