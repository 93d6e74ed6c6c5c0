/**
 * A remark plugin that turns a writer's silent MDX mistakes into compile errors naming the file and
 * line, in `docusaurus start` (the dev server's compile error) and `docusaurus build` alike:
 * - a property of an imported constant that does not exist (`{SAMPLES.typo}` renders as an empty
 *   string), an imported name its module does not export, a constant-like name never imported;
 * - a code-fence language Prism does not register (no highlighting, no warning);
 * - an unknown admonition (`:::warnin` renders as a paragraph, with only a console warning);
 * - a link to a doc page or heading that does not exist, in either style (doc-links.ts).
 * It is a docs `beforeDefaultRemarkPlugins` entry, so it sees directives before the admonitions
 * plugin rewrites them. Every problem of a page is reported at once, as `file:line:column: what`.
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import createJiti from 'jiti';
import type {Root} from 'mdast';

import {languagesInLoadOrder} from '../../lib/prism';
import {docLinks} from './doc-links';

export type Options = {
  /** The Prism language ids the client registers (PRISM_LANGUAGES); their aliases and dependencies count too. */
  languages: string[];
  /** Admonition keywords the docs plugin adds to Docusaurus's defaults (its `admonitions.keywords`). */
  admonitionKeywords?: string[];
  /** The site directory: `@site/` in imports, and what file names in messages are relative to. */
  siteDir?: string;
  /** The docs plugin's directory and route base, for links between pages (default `docs` under siteDir, `/`). */
  docsDir?: string;
  routeBasePath?: string;
};

/** Docusaurus 3.7's admonition keywords (DefaultAdmonitionOptions in @docusaurus/mdx-loader; the test compares). */
/** What every page's front matter must give, and why. */
export const REQUIRED_FRONT_MATTER = ['title', 'description'] as const;
const REQUIRED_FRONT_MATTER_WHY: Record<(typeof REQUIRED_FRONT_MATTER)[number], string> = {
  title: 'it is the page title, its <h1> and its sidebar label',
  description: 'it is the page summary in search results, link previews and llms.txt',
};

export const DEFAULT_ADMONITIONS = [
  'secondary',
  'info',
  'success',
  'danger',
  'note',
  'tip',
  'warning',
  'important',
  'caution',
];

/** The modules whose values pages may quote; they are loaded to check what a page reads from them. */
const CONSTANTS_PREFIX = '@site/src/constants/';

/** Names prism-core registers itself, for deliberately plain blocks. */
const PLAIN_TEXT = ['plain', 'plaintext', 'text', 'txt'];

type Loc = {line: number; column: number};
type EsNode = {type: string; loc?: {start: Loc}; [key: string]: unknown};
type MdNode = {
  type: string;
  name?: string;
  lang?: string | null;
  position?: {start: Loc};
  data?: {estree?: EsNode};
  children?: MdNode[];
  attributes?: unknown;
  value?: unknown;
  url?: string;
};
type Problem = {line: number; column: number; message: string};
type Binding = {value: unknown; module: string};

/** Each registered language id, with its aliases (prismjs/components.json, which the grammars' own code follows). */
export function registeredLanguages(languages: string[], siteDir = process.cwd()): Map<string, string[]> {
  const requireFromSite = createRequire(path.join(siteDir, 'package.json'));
  const components = requireFromSite('prismjs/components.js') as {
    languages: Record<string, {alias?: string | string[]}>;
  };
  return new Map(
    languagesInLoadOrder(languages, requireFromSite).map((id) => [
      id,
      ([] as string[]).concat(components.languages[id]?.alias ?? []),
    ]),
  );
}

const isNode = (value: unknown): value is EsNode =>
  typeof value === 'object' && value !== null && typeof (value as EsNode).type === 'string';

function childNodes(node: EsNode): [EsNode, string][] {
  const out: [EsNode, string][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'range') continue;
    for (const item of Array.isArray(value) ? value : [value]) if (isNode(item)) out.push([item, key]);
  }
  return out;
}

/** Names a binding pattern declares (`a`, `{a, b: [c]}`, `...d`, `e = 1`). */
function patternNames(node: unknown, names: Set<string>): void {
  if (!isNode(node)) return;
  if (node.type === 'Identifier') names.add(node.name as string);
  else if (node.type === 'ObjectPattern')
    for (const prop of node.properties as EsNode[])
      patternNames(prop.type === 'RestElement' ? prop : prop.value, names);
  else if (node.type === 'ArrayPattern') for (const element of node.elements as unknown[]) patternNames(element, names);
  else if (node.type === 'RestElement') patternNames(node.argument, names);
  else if (node.type === 'AssignmentPattern') patternNames(node.left, names);
}

/** The names a page declares anywhere, scopes aside: `imported` from import statements, `local` by its own code. */
function declaredNames(program: EsNode, names: {imported: Set<string>; local: Set<string>}): void {
  const visit = (node: EsNode) => {
    if (/^Import(Default|Namespace)?Specifier$/.test(node.type)) patternNames(node.local, names.imported);
    if (/Function/.test(node.type)) for (const param of node.params as EsNode[]) patternNames(param, names.local);
    if (node.type === 'VariableDeclarator') patternNames(node.id, names.local);
    if (node.type === 'CatchClause') patternNames(node.param, names.local);
    if (/^(Function|Class)Declaration$/.test(node.type)) patternNames(node.id, names.local);
    for (const [child] of childNodes(node)) visit(child);
  };
  visit(program);
}

/** An Identifier child that is a name, not a reference (`a.b`'s b, `{b: 1}`'s b, labels). */
function isNameOnly(parent: EsNode, key: string): boolean {
  if ((parent.type === 'Property' || /^(Method|Property)Definition$/.test(parent.type)) && key === 'key')
    return !parent.computed;
  return key === 'label' || parent.type === 'MetaProperty' || (parent.type === 'ExportSpecifier' && key === 'exported');
}

/** Checks the member chains (`SAMPLES.a.b`, also in templates and calls) and free constant-like names of one program. */
function checkProgram(
  program: EsNode,
  bindings: Map<string, Binding>,
  names: {imported: Set<string>; local: Set<string>},
  report: (node: EsNode, message: string) => void,
): void {
  // Only constant-like names: a page's other free names are MDX's own (`props`, components).
  const checkFree = (node: EsNode) => {
    const name = node.name as string;
    if (
      /^[A-Z][A-Z0-9_]*$/.test(name) &&
      !names.imported.has(name) &&
      !names.local.has(name) &&
      !(name in globalThis)
    ) {
      report(node, `${name} is not defined on this page: import it from ${CONSTANTS_PREFIX}… or fix its spelling`);
    }
  };
  const visit = (node: EsNode, parent: EsNode | undefined, key: string) => {
    if (node.type === 'ImportDeclaration') return;
    if (node.type === 'Identifier') {
      if (!parent || !isNameOnly(parent, key)) checkFree(node);
      return;
    }
    if (node.type !== 'MemberExpression') {
      for (const [child, childKey] of childNodes(node)) visit(child, node, childKey);
      return;
    }
    // Flatten `A.b["c"].d` into its root and the property nodes, outermost last.
    const members: EsNode[] = [];
    let root: EsNode = node;
    while (root.type === 'MemberExpression') {
      members.unshift(root);
      root = root.object as EsNode;
    }
    for (const member of members) if (member.computed) visit(member.property as EsNode, member, 'property');
    if (root.type !== 'Identifier') return visit(root, members[0], 'object');
    checkFree(root);
    const binding = bindings.get(root.name as string);
    // A parameter or variable of the same name somewhere on the page: not worth telling the two apart.
    if (!binding || names.local.has(root.name as string)) return;
    let value = binding.value;
    let chain = root.name as string;
    for (const member of members) {
      const property = member.property as EsNode;
      const name = member.computed
        ? property.type === 'Literal'
          ? String(property.value)
          : undefined
        : (property.name as string);
      if (name === undefined) return; // `LIMITS[key]`: not known before run time
      if (value === null || value === undefined)
        return report(property, `${chain} is ${value}, so it has no property "${name}" (${binding.module})`);
      if (!(name in Object(value))) return report(property, `${chain} has no property "${name}" (${binding.module})`);
      value = (value as Record<string, unknown>)[name];
      chain += `.${name}`;
    }
  };
  visit(program, undefined, '');
}

/** The remark plugin (docusaurus.config.ts: docs `beforeDefaultRemarkPlugins`). */
export default function mdxChecks(options: Options) {
  const siteDir = options.siteDir ?? process.cwd();
  const registered = registeredLanguages(options.languages, siteDir);
  const languages = new Set([...PLAIN_TEXT, ...[...registered].flatMap(([id, aliases]) => [id, ...aliases])]);
  const languageList = [...registered]
    .map(([id, aliases]) => (aliases.length ? `${id} (${aliases.join(', ')})` : id))
    .join(', ');
  const admonitions = [...DEFAULT_ADMONITIONS, ...(options.admonitionKeywords ?? [])];
  // Fresh modules for each page (no require cache): a page compiled while `npm start` runs sees today's constants.
  const load = createJiti(path.join(siteDir, 'package.json'), {
    cache: true,
    requireCache: false,
    interopDefault: false,
  });
  const relative = (file: string) => path.relative(siteDir, file).split(path.sep).join('/');
  const links = docLinks(options.docsDir ?? path.join(siteDir, 'docs'), options.routeBasePath);

  return (tree: Root, file: {path?: string; data?: {frontMatter?: Record<string, unknown>}}) => {
    const problems: Problem[] = [];
    const at = (loc: Loc | undefined, message: string, zeroBasedColumn = false) =>
      problems.push({line: loc?.line ?? 0, column: (loc?.column ?? 0) + (zeroBasedColumn ? 1 : 0), message});

    // Docusaurus would title the page after its file name and describe it with its first sentence.
    // Partials (`_name.mdx`) are imported into pages and need none.
    const frontMatter = file.data?.frontMatter;
    if (frontMatter && !path.basename(file.path ?? '').startsWith('_')) {
      for (const key of REQUIRED_FRONT_MATTER) {
        if (typeof frontMatter[key] !== 'string' || frontMatter[key].trim() === '') {
          at({line: 1, column: 1}, `the front matter has no "${key}": ${REQUIRED_FRONT_MATTER_WHY[key]}`);
        }
      }
    }
    const report = (node: EsNode, message: string) => void at(node.loc?.start, message, true);

    const programs: EsNode[] = [];
    const walk = (node: MdNode) => {
      if (node.data?.estree) programs.push(node.data.estree);
      if (node.type === 'code' && node.lang && !languages.has(node.lang)) {
        at(
          node.position?.start,
          `code block language "${node.lang}" is not registered with Prism, so it is not highlighted; use one of ${languageList}, or add it to PRISM_LANGUAGES in docusaurus.config.ts`,
        );
      }
      // `:::name Title` with an unknown name is not even a directive (Docusaurus rewrites the title syntax for
      // known names only): it stays a paragraph that starts with the text ":::name".
      const name =
        node.type === 'containerDirective'
          ? node.name
          : node.type === 'paragraph'
            ? /^:::\s*([A-Za-z][\w-]*)/.exec(String(node.children?.[0]?.value))?.[1]
            : undefined;
      if ((node.type === 'link' || node.type === 'definition') && file.path && typeof node.url === 'string') {
        const problem = links.problem(node.url, file.path);
        if (problem) at(node.position?.start, problem);
      }
      // A link written as JSX, `<a href="/basics/sdk">`, with the URL as text (a constant is checked as one).
      if (/^mdxJsx(?:Flow|Text)Element$/.test(node.type) && (node.name === 'a' || node.name === 'Link') && file.path) {
        for (const attribute of Array.isArray(node.attributes) ? (node.attributes as MdNode[]) : []) {
          if (!['href', 'to'].includes(attribute.name ?? '') || typeof attribute.value !== 'string') continue;
          const problem = /\.mdx?(?:#|$)/.test(attribute.value)
            ? `link to "${attribute.value}" in JSX: a file path is turned into the page's URL only in a Markdown link; write [text](${attribute.value})`
            : links.problem(attribute.value, file.path);
          if (problem) at(node.position?.start, problem);
        }
      }
      // Backticks are literal in MDX: `{LIMITS.x}` inside them is printed as written, braces and all.
      const literalConstant =
        node.type === 'inlineCode'
          ? /\{[A-Z][A-Z0-9_]*(?:\.[A-Za-z0-9_]+)*\}/.exec(String(node.value))?.[0]
          : undefined;
      if (literalConstant) {
        at(
          node.position?.start,
          `${literalConstant} inside backticks is printed as written, not replaced; write <code>…${literalConstant}…</code>`,
        );
      }
      if (name && !admonitions.includes(name)) {
        at(node.position?.start, `unknown admonition ":::${name}"; Docusaurus knows ${admonitions.join(', ')}`);
      }
      // JSX attributes: `{...spread}` and `name={value}` (a directive's attributes are a plain object).
      for (const attribute of Array.isArray(node.attributes) ? (node.attributes as MdNode[]) : []) {
        const estree = attribute.data?.estree ?? (attribute.value as MdNode | null | undefined)?.data?.estree;
        if (estree) programs.push(estree);
      }
      for (const child of node.children ?? []) walk(child);
    };
    walk(tree as unknown as MdNode);

    // What the page imports from the constants modules, checked against what those modules export.
    const bindings = new Map<string, Binding>();
    for (const program of programs) {
      for (const statement of program.body as EsNode[]) {
        const source = statement.type === 'ImportDeclaration' ? ((statement.source as EsNode).value as string) : '';
        if (!source.startsWith(CONSTANTS_PREFIX)) continue;
        const absolute = path.join(siteDir, source.slice('@site/'.length));
        let module: Record<string, unknown>;
        let moduleFile = source;
        try {
          moduleFile = relative(load.resolve(absolute));
          module = load(absolute) as Record<string, unknown>;
        } catch (error) {
          report(statement, `cannot load ${moduleFile}: ${(error as Error).message.split('\n')[0]}`);
          continue;
        }
        for (const specifier of statement.specifiers as EsNode[]) {
          const local = (specifier.local as EsNode).name as string;
          if (specifier.type === 'ImportNamespaceSpecifier') {
            bindings.set(local, {value: module, module: moduleFile});
            continue;
          }
          const imported =
            specifier.type === 'ImportDefaultSpecifier'
              ? 'default'
              : (((specifier.imported as EsNode).name ?? (specifier.imported as EsNode).value) as string);
          if (!(imported in module)) report(specifier, `${moduleFile} has no export "${imported}"`);
          else bindings.set(local, {value: module[imported], module: moduleFile});
        }
      }
    }
    const names = {imported: new Set<string>(), local: new Set<string>()};
    for (const program of programs) declaredNames(program, names);
    for (const program of programs) checkProgram(program, bindings, names, report);

    if (problems.length > 0) {
      const name = file.path ? relative(file.path) : '<mdx>';
      const message = problems
        .sort((a, b) => a.line - b.line || a.column - b.column)
        .map((problem) => `${name}:${problem.line}:${problem.column}: ${problem.message}`)
        .join('\n');
      const error = new Error(message);
      // The MDX loader prints the stack under "Details": where the check lives says more than its frames.
      error.stack = 'Reported by plugins/remark/mdx-checks (a docs remark plugin in docusaurus.config.ts).';
      throw error;
    }
  };
}
