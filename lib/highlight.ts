/**
 * Build-time code highlighting, shared by the fences (plugins/remark/code-highlight) and the blocks components
 * render from generated data (plugins/api-reference): Prism's grammars and prism-react-renderer's own token
 * lines, into an HTML string the CodeBlock renders as it is. Why: BENCHMARKS.md, "Code highlighted at build time".
 * Colours are classes (the type whose theme style wins; neighbours of one colour share the first one's span, and
 * tokens the colour of plain text get none), styled by `tokenCss` in custom.css.
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {normalizeTokens, type PrismTheme} from 'prism-react-renderer';

import {languagesInLoadOrder} from './prism';

export type HighlightOptions = {
  /** The Prism language ids the docs use (PRISM_LANGUAGES); their aliases and dependencies are loaded too. */
  languages: string[];
  /** The theme whose styles `tokenCss` turns into the stylesheet's rules. */
  theme: PrismTheme;
  /** themeConfig.prism.magicComments; Docusaurus's default when not given. */
  magicComments?: MagicComment[];
};

export type MagicComment = {className: string; line?: string; block?: {start: string; end: string}};
type Token = {types: string[]; content: string; empty?: boolean};
type PrismLike = {
  languages: Record<string, unknown>;
  tokenize(code: string, grammar: unknown): unknown[];
  hooks: {run(name: string, env: object): void};
};
type CodeBlockUtils = {
  parseLines(
    content: string,
    options: {metastring?: string; language?: string; magicComments: MagicComment[]},
  ): {code: string; lineClassNames: Record<number, string[]>};
  containsLineNumbers(metastring?: string): boolean;
};

/** Docusaurus 3.7's default magic comments (theme-classic's DEFAULT_CONFIG.prism.magicComments). */
export const DEFAULT_MAGIC_COMMENTS: MagicComment[] = [
  {
    className: 'theme-code-block-highlighted-line',
    line: 'highlight-next-line',
    block: {start: 'highlight-start', end: 'highlight-end'},
  },
];

const requireFromSite = createRequire(path.join(process.cwd(), 'package.json'));

/** A Prism instance with exactly the configured grammars (prismjs's own component files, as the client had). */
export function loadPrism(languages: string[]): PrismLike {
  const prismPath = requireFromSite.resolve('prismjs/components/prism-core.js');
  const Prism = requireFromSite(prismPath) as PrismLike;
  const global = globalThis as {Prism?: unknown};
  const previous = global.Prism;
  global.Prism = Prism; // the grammar files register on the global Prism
  try {
    for (const id of languagesInLoadOrder(languages, requireFromSite)) {
      requireFromSite(`prismjs/components/prism-${id}.js`);
    }
  } finally {
    global.Prism = previous;
  }
  return Prism;
}

/** prism-react-renderer's themeToDict: each type's style for one language, later entries overriding. */
function themeDictionary(theme: PrismTheme, language: string): Record<string, Record<string, unknown>> {
  const dictionary: Record<string, Record<string, unknown>> = {};
  for (const {types, languages, style} of theme.styles) {
    if (languages && !languages.includes(language as never)) continue;
    for (const type of types) dictionary[type] = {...dictionary[type], ...style};
  }
  return dictionary;
}

/**
 * The type whose style a token shows. prism-react-renderer merges its types' styles in order, so the last
 * styled type wins when every entry sets the same properties (the theme test checks that); none: plain.
 */
export function decisiveType(types: string[], dictionary: Record<string, unknown>): string | undefined {
  for (let index = types.length - 1; index >= 0; index--) {
    if (types[index] !== 'plain' && dictionary[types[index]!]) return types[index];
  }
  return undefined;
}

/** A colour as one string whatever its notation (`#9CDCFE` and `rgb(156, 220, 254)` are one colour). */
export function colourKey(value: unknown): string {
  const text = String(value).trim().toLowerCase();
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(text);
  if (hex)
    return `rgb(${hex
      .slice(1)
      .map((pair) => parseInt(pair, 16))
      .join(', ')})`;
  return text.replace(/\s+/g, ' ').replace(/\s*,\s*/g, ', ');
}

const styleKey = (style: Record<string, unknown>) =>
  JSON.stringify(
    Object.keys(style)
      .sort()
      .map((property) => [property, colourKey(style[property])]),
  );

/**
 * Per token type of one language, its look: the style it shows, or none when that is the plain text's (`variable` in
 * vsDark). Neighbouring tokens of one look then share a span, and plain-looking ones need none.
 */
export function tokenLooks(
  theme: PrismTheme,
  dictionary: Record<string, Record<string, unknown>>,
): Map<string, string | undefined> {
  const plain = theme.plain as Record<string, unknown>;
  const looks = new Map<string, string | undefined>();
  for (const [type, style] of Object.entries(dictionary)) {
    const isPlain = Object.keys(style).every((property) => colourKey(style[property]) === colourKey(plain[property]));
    looks.set(type, isPlain ? undefined : styleKey(style));
  }
  return looks;
}

/** The language-scoped selector of a theme entry: prism-react-renderer matches the fence's language exactly. */
const scoped = (languages: readonly string[] | undefined, selector: string) =>
  languages ? languages.map((language) => `.language-${language} ${selector}`).join(',\n') : selector;

const kebab = (property: string) => property.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The token types `languages`' grammars can give a token: each token's name and aliases, nested grammars' too. */
function grammarTypes(Prism: PrismLike, languages: readonly string[]): Set<string> {
  const types = new Set<string>();
  const seen = new Set<object>();
  const walk = (grammar: unknown): void => {
    if (!grammar || typeof grammar !== 'object' || seen.has(grammar)) return;
    seen.add(grammar);
    for (const [name, patterns] of Object.entries(grammar)) {
      if (name !== 'rest') types.add(name);
      if (name === 'rest') walk(patterns);
      for (const pattern of [patterns].flat()) {
        if (!pattern || typeof pattern !== 'object' || pattern instanceof RegExp) continue;
        const {alias, inside} = pattern as {alias?: string | string[]; inside?: unknown};
        for (const aliasName of [alias ?? []].flat()) types.add(aliasName);
        walk(inside);
      }
    }
  };
  for (const language of languages) walk(Prism.languages[language]);
  return types;
}

/**
 * The theme's entries a span can need: of the types the configured grammars emit, and not the look of plain text
 * (such tokens get no span). The rest would be bytes of render-blocking CSS no page uses.
 */
export function usedTokenStyles(options: Pick<HighlightOptions, 'languages' | 'theme'>): PrismTheme['styles'] {
  const emitted = grammarTypes(loadPrism(options.languages), options.languages);
  const plain = options.theme.plain as Record<string, unknown>;
  return options.theme.styles.flatMap((entry) => {
    const types = entry.types.filter((type) => emitted.has(type));
    const style = entry.style as Record<string, unknown>;
    const isPlain = Object.keys(style).every((property) => colourKey(style[property]) === colourKey(plain[property]));
    return types.length > 0 && !isPlain ? [{...entry, types}] : [];
  });
}

/** The stylesheet rules of the theme's token styles a span can need, in the theme's order (scoped entries outrank). */
export function tokenCss(options: Pick<HighlightOptions, 'languages' | 'theme'>): string {
  return usedTokenStyles(options)
    .map(({types, languages, style}) => {
      const declarations = Object.entries(style).map(
        ([property, value]) => `  ${kebab(property)}: ${String(value)};\n`,
      );
      const selectors = types.map((type) => scoped(languages, `.token.${type}`)).join(',\n');
      return `${selectors} {\n${declarations.join('')}}\n`;
    })
    .join('');
}

const ESCAPES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;'};
const escapeHtml = (text: string) => text.replace(/[&<>]/g, (character) => ESCAPES[character]!);

/** A block's code as the CodeBlock shows and copies it, and the same code as highlighted HTML. */
export type HighlightedCode = {code: string; html: string};

export type Highlighter = (code: string, language: string | undefined, metastring?: string) => HighlightedCode;

/** The highlighter: code (magic comments removed, as the copy button copies it) and its HTML, line by line. */
export function createHighlighter(options: HighlightOptions, utils: CodeBlockUtils): Highlighter {
  const Prism = loadPrism(options.languages);
  const magicComments = options.magicComments ?? DEFAULT_MAGIC_COMMENTS;
  const looks = new Map<string, {dictionary: Record<string, unknown>; looks: Map<string, string | undefined>}>();
  return (raw, rawLanguage, metastring) => {
    // As the stock CodeBlock: lowercase, and `text` when the fence names none.
    const language = (rawLanguage ?? 'text').toLowerCase();
    const {code, lineClassNames} = utils.parseLines(raw, {
      metastring,
      language: rawLanguage?.toLowerCase(),
      magicComments,
    });
    let languageLooks = looks.get(language);
    if (!languageLooks) {
      const dictionary = themeDictionary(options.theme, language);
      looks.set(language, (languageLooks = {dictionary, looks: tokenLooks(options.theme, dictionary)}));
    }
    const {dictionary, looks: lookOf} = languageLooks;
    const grammar = Prism.languages[language];
    let tokens: unknown[] = [code];
    if (grammar) {
      const env = {code, grammar, language, tokens: [] as unknown[]};
      Prism.hooks.run('before-tokenize', env);
      env.tokens = Prism.tokenize(code, grammar);
      Prism.hooks.run('after-tokenize', env);
      tokens = env.tokens;
    }
    const lines = normalizeTokens(tokens as never) as Token[][];
    const html = lines.map((line, index) => {
      let text = '';
      let open: string | undefined;
      for (const token of line) {
        if (token.empty || token.content === '') continue;
        const type = decisiveType(token.types, dictionary);
        const look = type && lookOf.get(type);
        // Neighbours of one look share a span, named by the first one's type: fewer elements, the same colours.
        if (look !== open) {
          if (open) text += '</span>';
          if (look) text += `<span class="token ${type}">`;
          open = look;
        }
        text += escapeHtml(token.content);
      }
      if (open) text += '</span>';
      const newline = index < lines.length - 1 ? '\n' : '';
      const classNames = lineClassNames[index];
      // The line's newline inside its block, so a highlighted line ends where its background does.
      return classNames ? `<span class="${classNames.join(' ')}">${text}${newline}</span>` : `${text}${newline}`;
    });
    return {code, html: html.join('')};
  };
}

/** The theme's own line parser (magic comments, metastring ranges), so code and HTML match the CodeBlock's. */
export async function loadCodeBlockUtils(): Promise<CodeBlockUtils> {
  // Pure string functions of the theme, not exported by name (its `internal` entry also loads client hooks).
  const file = path.join(path.dirname(requireFromSite.resolve('@docusaurus/theme-common')), 'utils/codeBlockUtils.js');
  return (await import(pathToFileURL(file).href)) as CodeBlockUtils;
}

/** The highlighter the build uses for fences and for the blocks components render. */
export async function loadHighlighter(options: HighlightOptions): Promise<Highlighter> {
  return createHighlighter(options, await loadCodeBlockUtils());
}

/** A block a component renders from generated data: its language, and its code and HTML from one highlighting. */
export type CodeBlockData = HighlightedCode & {language: string};

export function codeBlockData(highlight: Highlighter, code: string, language: string): CodeBlockData {
  return {language, ...highlight(code, language)};
}
