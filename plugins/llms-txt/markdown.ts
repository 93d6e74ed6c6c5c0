/**
 * MDX → plain Markdown for the `.md` twins: parses a page with remark (MDX, GFM, directives,
 * front matter), rewrites the MDX-only nodes into Markdown ones and stringifies the result.
 *
 * - `import`/`export` lines are dropped; imported constants are evaluated into `{…}` expressions
 *   and JSX attributes (`href={URLS.dashboard}`, template literals);
 * - `<Tabs>`/`<TabItem>` become one heading per tab (one level under the section they are in);
 * - admonitions (`:::note`) become blockquotes that start with their label (`> **Note:** …`);
 * - the site's components render as Markdown from the same constants (components.ts); imported
 *   SVG diagrams become an image link with their accessible name;
 * - `<a>`, `<code>`, `<strong>`, `<em>`, `<br>` become their Markdown equivalents, other HTML
 *   elements are unwrapped; an unknown component fails the build;
 * - links and images are made absolute (`.mdx` links to the page's canonical URL); code blocks
 *   keep their language (and `title`), without Docusaurus's highlight magic comments.
 */
import path from 'node:path';

import type {Code, Heading, Root, RootContent, Text} from 'mdast';

import type {ContractData} from '../../lib/contract/data';
import {COMPONENT_MODULES, CONSTANT_MODULES, type ComponentRenderer} from './components';

export type ConvertOptions = {
  /** Absolute path of the MDX file (relative `.mdx` links and imports resolve against it). */
  sourcePath: string;
  /** Absolute canonical URL of the page. */
  pageUrl: string;
  /** Absolute URL of the site root, with the base URL and a trailing slash: `https://docs.example.com/`. */
  siteRootUrl: string;
  /** The site path of the doc that an absolute `.md`/`.mdx` file path belongs to (its permalink). */
  resolveDocPermalink: (filePath: string) => string | undefined;
  /** The site directory (`@site/` in imports). */
  siteDir: string;
  /** Directories served at the site root (`static/`): imported SVGs under them become image links. */
  staticDirs: readonly string[];
  /** The served contract's facts that components render. */
  contract: ContractData;
};

/** Admonition keywords (Docusaurus's defaults) and the label each blockquote starts with. */
export const ADMONITION_LABELS: Readonly<Record<string, string>> = {
  note: 'Note',
  tip: 'Tip',
  info: 'Info',
  warning: 'Warning',
  danger: 'Danger',
  caution: 'Caution',
  important: 'Important',
  success: 'Success',
  secondary: 'Note',
};

/** Lines Docusaurus removes from code blocks (`// highlight-next-line`, `# highlight-start`, …). */
const MAGIC_COMMENT = /^\s*(?:\/\/|#|<!--|\/\*|--|;)\s*highlight-(?:next-line|start|end)\s*(?:-->|\*\/)?\s*$/;

type AnyNode = {type: string; children?: AnyNode[]; value?: string; [key: string]: unknown};
type JsxAttribute = {type: string; name?: string; value?: string | null | {type: string; value: string}};
type JsxElement = AnyNode & {name: string | null; attributes: JsxAttribute[]};

/** What an imported name stands for in the page. */
type Binding =
  | {kind: 'value'; value: unknown}
  | {kind: 'component'; render: ComponentRenderer}
  | {kind: 'tabs'}
  | {kind: 'tabItem'}
  | {kind: 'image'; url: string};

type State = {
  options: ConvertOptions;
  bindings: Map<string, Binding>;
  /** Depth of the last heading seen: tab headings go one level below it. */
  depth: number;
};

const PHRASING = new Set(['text', 'inlineCode', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'image', 'imageReference', 'break', 'footnoteReference']);
/** Nodes whose children are flow content (runs of phrasing content get wrapped in paragraphs). */
const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition', 'containerDirective', 'mdxJsxFlowElement']);

let processorsPromise: Promise<Processors> | undefined;
type Processors = {
  parse: (source: string) => Root;
  stringify: (tree: Root) => string;
};

/** The remark processors (ESM-only packages, imported once). */
function processors(): Promise<Processors> {
  processorsPromise ??= (async () => {
    const [{unified}, {default: remarkParse}, {default: remarkMdx}, {default: remarkGfm}, {default: remarkDirective}, {default: remarkFrontmatter}, {default: remarkStringify}] =
      await Promise.all([
        import('unified'),
        import('remark-parse'),
        import('remark-mdx'),
        import('remark-gfm'),
        import('remark-directive'),
        import('remark-frontmatter'),
        import('remark-stringify'),
      ]);
    const parser = unified().use(remarkParse).use(remarkFrontmatter).use(remarkMdx).use(remarkGfm).use(remarkDirective);
    const writer = unified()
      // Unpadded tables: the same Markdown, far fewer tokens.
      .use(remarkGfm, {tablePipeAlign: false})
      .use(remarkStringify, {bullet: '-', emphasis: '_', strong: '*', fences: true, rule: '-', listItemIndent: 'one', incrementListMarker: true, resourceLink: true});
    return {
      parse: (source) => parser.parse(source) as Root,
      stringify: (tree) => writer.stringify(tree),
    };
  })();
  return processorsPromise;
}

/** Docusaurus's own MDX preprocessing (heading ids `{#id}`, `:::note Title`, ```` ```mdx-code-block ````). */
async function preprocess(source: string): Promise<string> {
  const {admonitionTitleToDirectiveLabel, escapeMarkdownHeadingIds, unwrapMdxCodeBlocks} = await import('@docusaurus/utils');
  return admonitionTitleToDirectiveLabel(escapeMarkdownHeadingIds(unwrapMdxCodeBlocks(source)), Object.keys(ADMONITION_LABELS));
}

/** Converts an MDX page (with its front matter) to the Markdown of its body. */
export async function mdxToMarkdown(source: string, options: ConvertOptions): Promise<string> {
  const {parse, stringify} = await processors();
  const tree = parse(await preprocess(source)) as unknown as AnyNode;
  const state: State = {options, bindings: collectBindings(tree, options), depth: 1};
  const children = convertChildren(tree, state);
  // The title is rendered by the caller from the front matter; drop a content H1 that repeats it.
  if (children[0]?.type === 'heading' && (children[0] as unknown as Heading).depth === 1) {
    children.shift();
  }
  return stringify({type: 'root', children: children as RootContent[]});
}

// ---------------------------------------------------------------------------------------------
// Imports and expressions

function collectBindings(tree: AnyNode, options: ConvertOptions): Map<string, Binding> {
  const bindings = new Map<string, Binding>();
  for (const node of tree.children ?? []) {
    if (node.type !== 'mdxjsEsm') {
      continue;
    }
    const program = (node.data as {estree?: {body: EsNode[]}} | undefined)?.estree;
    for (const statement of program?.body ?? []) {
      if (statement.type !== 'ImportDeclaration') {
        continue;
      }
      const source = String(statement.source?.value);
      for (const specifier of statement.specifiers ?? []) {
        const local = specifier.local!.name!;
        const imported = specifier.type === 'ImportDefaultSpecifier' ? 'default' : specifier.imported?.name;
        bindings.set(local, bindingFor(source, imported, options));
      }
    }
  }
  return bindings;
}

type EsNode = {
  type: string;
  source?: {value: unknown};
  specifiers?: EsNode[];
  local?: {name?: string};
  imported?: {name?: string};
};

function bindingFor(source: string, imported: string | undefined, options: ConvertOptions): Binding {
  if (source === '@theme/Tabs') {
    return {kind: 'tabs'};
  }
  if (source === '@theme/TabItem') {
    return {kind: 'tabItem'};
  }
  const constants = CONSTANT_MODULES[source];
  if (constants) {
    return imported === undefined ? {kind: 'value', value: constants} : {kind: 'value', value: constants[imported]};
  }
  const components = COMPONENT_MODULES[source];
  const render = imported === undefined ? undefined : components?.[imported];
  if (render) {
    return {kind: 'component', render};
  }
  if (/\.(?:svg|png|jpe?g|gif|webp)$/i.test(source) && imported === 'default') {
    return {kind: 'image', url: staticUrl(source, options)};
  }
  throw new Error(
    `llms-txt: ${options.sourcePath} imports ${imported ?? '*'} from "${source}", which has no Markdown rendering; add it to plugins/llms-txt/components.ts.`,
  );
}

/** `@site/static/img/x.svg` or `../../static/img/x.svg` → its absolute URL on the site. */
function staticUrl(source: string, options: ConvertOptions): string {
  const file = source.startsWith('@site/')
    ? path.resolve(options.siteDir, source.slice('@site/'.length))
    : path.resolve(path.dirname(options.sourcePath), source);
  for (const dir of options.staticDirs) {
    const relative = path.relative(dir, file);
    if (!relative.startsWith('..') && !path.isAbsolute(relative)) {
      return new URL(relative.split(path.sep).join('/'), options.siteRootUrl).href;
    }
  }
  throw new Error(`llms-txt: ${options.sourcePath} imports the image "${source}", which is not under a static directory.`);
}

/** Evaluates a `{…}` expression against the page's imports; `undefined` for a comment-only one. */
export function evaluate(expression: string, bindings: ReadonlyMap<string, Binding>, where: string): unknown {
  if (expression.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').trim() === '') {
    return undefined;
  }
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [name, binding] of bindings) {
    if (binding.kind === 'value') {
      names.push(name);
      values.push(binding.value);
    }
  }
  try {
    // The expressions are the site's own page source, evaluated at build time like MDX does.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return new Function(...names, `"use strict"; return (${expression}\n);`)(...values) as unknown;
  } catch (error) {
    throw new Error(`llms-txt: cannot evaluate {${expression}} in ${where}: ${(error as Error).message}`);
  }
}

/** What React would render for an expression's value, as text. */
function renderValue(value: unknown, where: string): string {
  if (value === undefined || value === null || typeof value === 'boolean') {
    return '';
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') {
    return String(value);
  }
  if (Array.isArray(value)) {
    return value.map((item) => renderValue(item, where)).join('');
  }
  throw new Error(`llms-txt: an expression in ${where} renders a ${typeof value}, not text.`);
}

// ---------------------------------------------------------------------------------------------
// Tree conversion

function convertChildren(parent: AnyNode, state: State): AnyNode[] {
  const converted = (parent.children ?? []).flatMap((child) => convertNode(child, state));
  return FLOW_PARENTS.has(parent.type) ? wrapPhrasingRuns(converted) : converted;
}

/** Wraps runs of phrasing nodes that ended up in flow position in paragraphs. */
function wrapPhrasingRuns(nodes: AnyNode[]): AnyNode[] {
  const result: AnyNode[] = [];
  let run: AnyNode[] = [];
  const flush = () => {
    if (run.some((node) => node.type !== 'text' || (node.value ?? '').trim() !== '')) {
      result.push({type: 'paragraph', children: run} satisfies AnyNode);
    }
    run = [];
  };
  for (const node of nodes) {
    if (PHRASING.has(node.type)) {
      run.push(node);
    } else {
      flush();
      result.push(node);
    }
  }
  flush();
  return result;
}

function convertNode(node: AnyNode, state: State): AnyNode[] {
  const where = state.options.sourcePath;
  switch (node.type) {
    case 'yaml':
    case 'toml':
    case 'mdxjsEsm':
      return [];
    case 'mdxFlowExpression':
    case 'mdxTextExpression': {
      const value = renderValue(evaluate(node.value ?? '', state.bindings, where), where);
      return value === '' ? [] : [{type: 'text', value} satisfies Text];
    }
    case 'heading': {
      const heading = node as AnyNode & {depth: number};
      state.depth = heading.depth;
      return [{...heading, children: stripHeadingId(convertChildren(heading, state))}];
    }
    case 'code':
      return [convertCode(node as unknown as Code) as unknown as AnyNode];
    case 'link':
    case 'definition':
      return [{...node, url: absoluteUrl(String(node.url), state.options), ...(node.children ? {children: convertChildren(node, state)} : {})}];
    case 'image':
      return [{...node, url: absoluteUrl(String(node.url), state.options)}];
    case 'containerDirective':
    case 'leafDirective':
    case 'textDirective':
      return convertDirective(node, state);
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      return convertJsx(node as JsxElement, state);
    default:
      return node.children ? [{...node, children: convertChildren(node, state)}] : [node];
  }
}

/** `### invalid_request {#invalid_request}`: the explicit id is Docusaurus syntax, not Markdown. */
function stripHeadingId(children: AnyNode[]): AnyNode[] {
  const last = children.at(-1);
  if (last?.type === 'text' && last.value) {
    const value = last.value.replace(/\s*\\?\{#[^}]*\}\s*$/, '');
    return value === '' ? children.slice(0, -1) : [...children.slice(0, -1), {...last, value}];
  }
  return children;
}

function convertCode(node: Code): Code {
  const title = node.meta?.match(/\btitle=(?:"[^"]*"|'[^']*'|\S+)/)?.[0];
  const value = node.value
    .split('\n')
    .filter((line) => !MAGIC_COMMENT.test(line))
    .join('\n');
  return {type: 'code', lang: node.lang ?? null, meta: title ?? null, value};
}

function convertDirective(node: AnyNode, state: State): AnyNode[] {
  const name = String(node.name);
  const label = ADMONITION_LABELS[name];
  if (node.type === 'containerDirective' && label) {
    const [first, ...rest] = node.children ?? [];
    const hasTitle = (first?.data as {directiveLabel?: boolean} | undefined)?.directiveLabel === true;
    const titleNodes = hasTitle ? convertChildren(first!, state) : [{type: 'text', value: label}];
    const body = convertChildren({...node, children: hasTitle ? rest : node.children}, state);
    const lead: AnyNode[] = [{type: 'strong', children: [...titleNodes, {type: 'text', value: ':'}]}, {type: 'text', value: ' '}];
    if (body[0]?.type === 'paragraph') {
      body[0] = {...body[0], children: [...lead, ...(body[0].children ?? [])]};
    } else {
      body.unshift({type: 'paragraph', children: lead.slice(0, 1)});
    }
    return [{type: 'blockquote', children: body}];
  }
  // Not an admonition: `:name` was prose (e.g. a time like 10:30am), restore it as text.
  const marker = node.type === 'containerDirective' ? ':::' : node.type === 'leafDirective' ? '::' : ':';
  const children = convertChildren(node, state);
  if (node.type === 'textDirective') {
    return [{type: 'text', value: `${marker}${name}`}, ...children];
  }
  return [{type: 'paragraph', children: [{type: 'text', value: `${marker}${name}`}]}, ...children];
}

function convertJsx(node: JsxElement, state: State): AnyNode[] {
  const where = state.options.sourcePath;
  const attribute = (name: string): unknown => {
    const found = node.attributes.find((candidate) => candidate.type === 'mdxJsxAttribute' && candidate.name === name);
    if (!found) {
      return undefined;
    }
    const value = found.value;
    if (value === null || value === undefined) {
      return true;
    }
    return typeof value === 'string' ? value : evaluate(value.value, state.bindings, where);
  };
  const children = () => convertChildren(node, state);
  const name = node.name;

  if (name === null) {
    return children();
  }
  const binding = state.bindings.get(name);
  if (binding?.kind === 'tabs') {
    return convertTabs(node, state);
  }
  if (binding?.kind === 'tabItem') {
    return children();
  }
  if (binding?.kind === 'component') {
    const props = Object.fromEntries(
      node.attributes.filter((item) => item.type === 'mdxJsxAttribute' && item.name).map((item) => [item.name!, attribute(item.name!)]),
    );
    return binding.render(props, {pageUrl: state.options.pageUrl, contract: state.options.contract}) as AnyNode[];
  }
  if (binding?.kind === 'image') {
    const alt = String(attribute('aria-label') ?? attribute('title') ?? attribute('alt') ?? '');
    return [{type: 'image', url: binding.url, alt, title: null}];
  }
  if (/^[A-Z]/.test(name) || name.includes('.')) {
    throw new Error(`llms-txt: <${name}> in ${where} has no Markdown rendering; add it to plugins/llms-txt/components.ts.`);
  }

  switch (name) {
    case 'a': {
      const href = attribute('href');
      return typeof href === 'string'
        ? [{type: 'link', url: absoluteUrl(href, state.options), title: null, children: children()}]
        : children();
    }
    case 'code':
    case 'kbd':
      return [{type: 'inlineCode', value: textOf(children())}];
    case 'strong':
    case 'b':
      return [{type: 'strong', children: children()}];
    case 'em':
    case 'i':
      return [{type: 'emphasis', children: children()}];
    case 'del':
    case 's':
      return [{type: 'delete', children: children()}];
    case 'br':
      return [{type: 'break'}];
    case 'img': {
      const src = attribute('src');
      return typeof src === 'string' ? [{type: 'image', url: absoluteUrl(src, state.options), alt: String(attribute('alt') ?? ''), title: null}] : [];
    }
    case 'p':
      return [{type: 'paragraph', children: children()} satisfies AnyNode];
    default:
      // div, span, section, details, …: keep the content, drop the element.
      return children();
  }
}

/** One heading per tab, one level under the section the tabs are in, then the tab's content. */
function convertTabs(node: JsxElement, state: State): AnyNode[] {
  const depth = Math.min(state.depth + 1, 6);
  const result: AnyNode[] = [];
  for (const child of node.children ?? []) {
    if (child.type !== 'mdxJsxFlowElement' || state.bindings.get(String((child as JsxElement).name))?.kind !== 'tabItem') {
      result.push(...convertNode(child, state));
      continue;
    }
    const item = child as JsxElement;
    const labelAttribute = item.attributes.find((attribute) => attribute.name === 'label') ?? item.attributes.find((attribute) => attribute.name === 'value');
    const rawLabel = labelAttribute?.value;
    const label =
      typeof rawLabel === 'string'
        ? rawLabel
        : rawLabel
          ? renderValue(evaluate(rawLabel.value, state.bindings, state.options.sourcePath), state.options.sourcePath)
          : 'Tab';
    result.push({type: 'heading', depth, children: [{type: 'text', value: label}]} satisfies AnyNode);
    const saved = state.depth;
    state.depth = depth;
    result.push(...convertChildren(item, state));
    state.depth = saved;
  }
  return result;
}

function textOf(nodes: readonly AnyNode[]): string {
  return nodes.map((node) => (typeof node.value === 'string' ? node.value : textOf(node.children ?? []))).join('');
}

/** Absolute URL of a link target: `.mdx` files become their page's canonical URL. */
export function absoluteUrl(rawUrl: string, options: ConvertOptions): string {
  // `pathname:///openapi.yaml`: Docusaurus's escape hatch for files outside the router.
  const url = rawUrl.replace(/^pathname:\/\//, '');
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) {
    return url;
  }
  if (url.startsWith('#')) {
    return `${options.pageUrl}${url}`;
  }
  if (url.startsWith('/')) {
    return new URL(url.slice(1), options.siteRootUrl).href;
  }
  const [pathPart = '', hash = ''] = url.split(/(?=#)/);
  if (/\.mdx?$/i.test(pathPart)) {
    const file = path.resolve(path.dirname(options.sourcePath), decodeURIComponent(pathPart));
    const permalink = options.resolveDocPermalink(file);
    if (permalink === undefined) {
      throw new Error(`llms-txt: ${options.sourcePath} links to ${url}, which is not a doc.`);
    }
    return `${new URL(permalink.replace(/^\//, ''), options.siteRootUrl).href}${hash}`;
  }
  return new URL(url, options.pageUrl).href;
}
