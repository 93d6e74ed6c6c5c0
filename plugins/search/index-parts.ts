/**
 * The search index in parts, so a first search downloads what it needs and not the whole index (which grows
 * with every page). The plugin writes one file of five lunr indexes (title, heading, description, keywords,
 * content); the content index is most of it (BENCHMARKS.md, "Search at scale"). After the build, the first
 * four stay whole in the plugin's file, with the content index's vocabulary; the content index's postings are
 * cut into parts by term range and its documents into parts by id. A search expands its words against the
 * vocabulary exactly as lunr would, loads only the parts holding those terms and the documents it shows,
 * and then runs lunr on them: for the loaded terms the postings and vectors are the whole index's, so
 * scores, order and snippets are those of the unsplit index. The box's worker and the MCP server both
 * search through `ShardedIndex` with the plugin's own query code.
 */
/** Where the parts go: content-hashed names under /assets/, so every host caches them for good. */
export const PARTS_DIR = 'assets/search-index';

/** The plugin's index file(s) in the build's root; each becomes a manifest. */
export const MANIFEST_FILE = /^search-index.*\.json$/;

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

export type Manifest = {
  format: 'sharded-1';
  whole: IndexPart[];
  content: {
    index: Pick<SerializedIndex, 'version' | 'fields' | 'pipeline'>;
    /** Every term of the content index, sorted as lunr sorts them. */
    terms: string[];
    /** Term parts: each holds the postings of `terms` from its `first` (a position in `terms`) up to the next part's. */
    termParts: {first: number; file: string}[];
    /** Document parts: each holds the ids from its `first` up to the next part's. */
    documentParts: {first: number; file: string}[];
  };
};
/** Postings in the order of the manifest's `terms` (the terms themselves are there, once). */
export type TermPart = {postings: Posting[]; fieldVectors: FieldVector[]};

// Part sizes, JSON characters: about 6 KB gzip each (BENCHMARKS.md, "Search at scale").
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

/**
 * Splits the plugin's index. `store` writes one part (JSON text) and returns the name the manifest
 * gives it, relative to the manifest.
 */
export function splitIndex(parts: IndexPart[], store: (json: string) => string): Manifest {
  const content = parts.at(-1)!;
  const {invertedIndex, fieldVectors, ...header} = content.index;
  const vectors = fieldVectors.map(([ref, elements]) => {
    const byTerm = new Map<number, number>();
    for (let k = 0; k < elements.length; k += 2) byTerm.set(elements[k]!, elements[k + 1]!);
    return [ref, byTerm] as const;
  });
  let position = 0;
  const termParts = runs(invertedIndex, TERM_PART_CHARS).map((entries) => {
    const termIndexes = new Set(entries.map(([, posting]) => posting._index));
    const partVectors: FieldVector[] = [];
    for (const [ref, byTerm] of vectors) {
      const elements = [...byTerm].filter(([term]) => termIndexes.has(term)).flat();
      if (elements.length > 0) partVectors.push([ref, elements]);
    }
    const part: TermPart = {postings: entries.map(([, posting]) => posting), fieldVectors: partVectors};
    const first = position;
    position += entries.length;
    return {first, file: store(JSON.stringify(part))};
  });
  const documents = [...content.documents].sort((a, b) => a.i - b.i);
  const documentParts = runs(documents, DOCUMENT_PART_CHARS).map((run) => ({
    first: run[0]!.i,
    file: store(JSON.stringify(run)),
  }));
  return {
    format: 'sharded-1',
    whole: parts.slice(0, -1),
    content: {index: header, terms: invertedIndex.map(([term]) => term), termParts, documentParts},
  };
}

export function isManifest(json: unknown): json is Manifest {
  return typeof json === 'object' && json !== null && (json as Manifest).format === 'sharded-1';
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
