// Every fenced code block of the docs, classified by its fence metadata: `run`, `example="…"`, `sdk` or `norun="…"`
// (README's table says what each does). Docusaurus reads only `title=` and `{1,3}`, and the Markdown twins keep only
// `title=`, so readers never see these words.
import {readFileSync, readdirSync, statSync} from 'node:fs';
import path from 'node:path';

import {escapeMarkdownHeadingIds} from '@docusaurus/utils';
import remarkFrontmatter from 'remark-frontmatter';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import {unified} from 'unified';

import type {ExampleTarget} from '../../lib/contract/validator';

export const ROOT = path.resolve(__dirname, '..', '..');
export const DOCS_DIR = path.join(ROOT, 'docs');

export type Runner = 'bash' | 'node' | 'python';

export type Classification =
  | {kind: 'run'; runner: Runner; expect: number[]; file?: string}
  | ({kind: 'example'; file?: string} & ExampleTarget)
  | {kind: 'sdk'}
  | {kind: 'norun'; reason: string};

export type Block = {
  /** `docs/getting-started/quick-start.mdx` */
  page: string;
  line: number;
  language: string;
  meta: string;
  /** The `value` of the enclosing `<TabItem>`, if any. */
  tab?: string;
  code: string;
  classification: Classification | {kind: 'invalid'; reason: string};
};

/** `docs/x.mdx:12 (bash)`: how failures name a block. */
export function blockName(block: Pick<Block, 'page' | 'line' | 'language' | 'tab'>): string {
  return `${block.page}:${block.line} (${block.language}${block.tab ? `, tab "${block.tab}"` : ''})`;
}

const RUNNERS: Record<string, Runner> = Object.fromEntries(
  Object.entries({bash: 'bash sh shell', node: 'js javascript mjs ts typescript', python: 'python py'}).flatMap(
    ([runner, languages]) => languages.split(' ').map((language) => [language, runner as Runner]),
  ),
);

const KNOWN_WORDS = new Set(['run', 'sdk', 'abridged', 'showLineNumbers']);
const KNOWN_KEYS = new Set(['norun', 'example', 'expect', 'file', 'title']);

/** Parses `run expect="422" title="x"` into words and key/value pairs. */
export function parseMeta(meta: string): {words: string[]; values: Record<string, string>; unknown: string[]} {
  const words: string[] = [];
  const values: Record<string, string> = {};
  const unknown: string[] = [];
  for (const match of meta.matchAll(/(\w+)=(?:"([^"]*)"|'([^']*)'|(\S+))|\{[\d,\s-]+\}|(\S+)/g)) {
    if (match[1] && KNOWN_KEYS.has(match[1])) values[match[1]] = match[2] ?? match[3] ?? match[4] ?? '';
    else if (match[1]) unknown.push(match[0]);
    else if (match[5]) (KNOWN_WORDS.has(match[5]) ? words : unknown).push(match[5]);
  }
  return {words, values, unknown};
}

export function classify(language: string, meta: string): Block['classification'] {
  const {words, values, unknown} = parseMeta(meta);
  const invalid = (reason: string) => ({kind: 'invalid', reason}) as const;
  if (unknown.length > 0) return invalid(`unknown fence metadata ${unknown.map((word) => `\`${word}\``).join(', ')}`);
  const kinds = [
    words.includes('run') && 'run',
    words.includes('sdk') && 'sdk',
    'norun' in values && 'norun',
    'example' in values && 'example',
  ].filter(Boolean);
  if (kinds.length !== 1) {
    return invalid(
      kinds.length === 0
        ? 'unclassified: add `run`, `example="…"`, `sdk` or `norun="reason"` after the language'
        : `classified more than once (${kinds.join(', ')})`,
    );
  }
  const runner = RUNNERS[language];
  switch (kinds[0]) {
    case 'run': {
      if (!runner) return invalid(`\`run\` needs bash, js, ts or python, not \`${language || 'no language'}\``);
      const expect = (values.expect?.match(/[^\s,]+/g) ?? []).map(Number);
      if (expect.some((status) => !Number.isInteger(status) || status < 100 || status > 599)) {
        return invalid(`expect="${values.expect}" must list HTTP statuses`);
      }
      return {kind: 'run', runner, expect, file: values.file};
    }
    case 'sdk':
      return RUNNERS[language] === 'node' ? {kind: 'sdk'} : invalid('`sdk` blocks are JavaScript or TypeScript');
    case 'norun':
      return values.norun!.trim()
        ? {kind: 'norun', reason: values.norun!.trim()}
        : invalid('`norun` needs a reason: norun="…"');
    default: {
      if (language !== 'json') return invalid('`example` blocks are JSON');
      const example = values.example!.trim();
      const webhook = /^webhook\s+(\S+)$/.exec(example);
      const match = /^(GET|POST|PUT|PATCH|DELETE)\s+(\/\S*)\s+(request|\d{3})(?:\s+(\/\S*))?$/.exec(example);
      if (!webhook && !match) {
        return invalid(
          `example="${values.example}" must read "METHOD /path request", "METHOD /path STATUS [/pointer]" or "webhook NAME"`,
        );
      }
      return {
        kind: 'example',
        method: webhook ? 'WEBHOOK' : match![1]!,
        path: webhook ? webhook[1]! : match![2]!,
        target: webhook || match![3] === 'request' ? 'request' : Number(match![3]),
        pointer: match?.[4] ?? '',
        abridged: words.includes('abridged'),
        file: values.file,
      };
    }
  }
}

/** The environment variable `npm run test:samples -- <page file>` sets: the pages to check, comma-separated. */
export const PAGES_ENV = 'DOCS_SAMPLE_PAGES';

/** The pages the doc tests check: those `npm run test:samples -- <page file>` names, else every page. */
export function selectedPages(env: NodeJS.ProcessEnv = process.env): string[] {
  const named = (env[PAGES_ENV] ?? '').split(',').filter(Boolean);
  if (named.length === 0) return listPages();
  return named.map((name) => {
    const file = path.resolve(ROOT, name);
    if (!/\.mdx?$/.test(file) || !statSync(file, {throwIfNoEntry: false})?.isFile()) {
      throw new Error(
        `${name} is not a page: name an .mdx file under docs/, e.g. docs/getting-started/quick-start.mdx`,
      );
    }
    return file;
  });
}

export function listPages(dir: string = DOCS_DIR): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return listPages(file);
      return /\.mdx?$/.test(name) ? [file] : [];
    });
}

type Node = {
  type: string;
  lang?: string | null;
  meta?: string | null;
  value?: string;
  name?: string | null;
  attributes?: {name?: string; value?: unknown}[];
  children?: Node[];
  position?: {start: {line: number}};
};

const parser = unified().use(remarkParse).use(remarkFrontmatter).use(remarkMdx);
// One parse per source text: the doc tests read each page's blocks and scopes many times.
const trees = new Map<string, Node>();
function parse(source: string): Node {
  // Docusaurus's own heading-id syntax (`## Errors {#errors}`) is not MDX; escaping it keeps line numbers.
  if (!trees.has(source)) trees.set(source, parser.parse(escapeMarkdownHeadingIds(source)) as Node);
  return trees.get(source)!;
}

/** The code blocks of one page (absolute path or source text), in page order. */
export function pageBlocks(file: string, source: string = readFileSync(file, 'utf8')): Block[] {
  const page = path.relative(ROOT, file);
  const blocks: Block[] = [];
  const visit = (node: Node, tab: string | undefined) => {
    if (node.type === 'code') {
      const language = (node.lang ?? '').toLowerCase();
      const meta = node.meta ?? '';
      blocks.push({
        page,
        line: node.position!.start.line,
        language,
        meta,
        tab,
        code: node.value ?? '',
        classification: classify(language, meta),
      });
      return;
    }
    const tabValue =
      node.name === 'TabItem' ? node.attributes?.find((attribute) => attribute.name === 'value')?.value : undefined;
    for (const child of node.children ?? []) visit(child, typeof tabValue === 'string' ? tabValue : tab);
  };
  visit(parse(source), undefined);
  return blocks;
}

export function allBlocks(): Block[] {
  return selectedPages().flatMap((file) => pageBlocks(file));
}

/** The operations a page's samples need scopes for: of every `<RequiredScopes samples operations={[…]} />` on it. */
export function requiredScopeOperations(file: string, source: string = readFileSync(file, 'utf8')): string[] {
  const operations: string[] = [];
  const visit = (node: Node) => {
    if (node.name === 'RequiredScopes' && node.attributes?.some((attribute) => attribute.name === 'samples')) {
      const value = node.attributes?.find((attribute) => attribute.name === 'operations')?.value as
        {value?: string} | undefined;
      for (const match of (value?.value ?? '').matchAll(/'([^']+)'|"([^"]+)"/g)) {
        operations.push(match[1] ?? match[2]!);
      }
    }
    node.children?.forEach(visit);
  };
  visit(parse(source));
  return operations;
}
