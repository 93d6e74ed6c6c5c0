import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {test, expect} from '@playwright/test';
import type {PrismTheme} from 'prism-react-renderer';

import config from '../../docusaurus.config';
import {vsDarkAccessible} from '../../src/code-theme/vsDarkAccessible';
import {colourKey, loadHighlighter, loadPrism, tokenCss, usedTokenStyles} from '../../lib/highlight';
import codeHighlight, {type Options} from './code-highlight';

const ROOT = path.resolve(__dirname, '../..');

/** The options docusaurus.config.ts gives the plugin (docs `rehypePlugins`). */
function configuredOptions(): Options {
  const [, {docs}] = config.presets![0] as [string, {docs: {rehypePlugins?: unknown[]}}];
  const entry = docs.rehypePlugins?.find((plugin) => Array.isArray(plugin) && plugin[0] === codeHighlight);
  if (!entry) throw new Error('code-highlight is not a docs rehypePlugins entry of docusaurus.config.ts');
  return (entry as [unknown, Options])[1];
}

/** Every fenced block of docs/: language, meta and body. */
const docFences = () =>
  readdirSync(path.join(ROOT, 'docs'), {recursive: true, encoding: 'utf8'})
    .filter((name) => /\.mdx?$/.test(name))
    .map((name) => path.join(ROOT, 'docs', name))
    .flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^```(\w+)?[ \t]*(.*)\n([\s\S]*?)^```$/gm)].map(
        ([, language, meta, body]) => ({file, language, meta: meta || undefined, body: body!}),
      ),
    );

const ENTITIES: Record<string, string> = {lt: '<', gt: '>', amp: '&'};
const decode = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&(lt|gt|amp);/g, (_, name) => ENTITIES[name]!);

/** The colour a token of these classes gets from the stylesheet tokenCss writes: specificity, then order. */
function cssColour(styles: PrismTheme['styles'], type: string | undefined, language: string): unknown {
  const rules = styles.filter(
    ({types, languages}) => type && types.includes(type) && (!languages || languages.includes(language as never)),
  );
  return [...rules.filter((rule) => !rule.languages), ...rules.filter((rule) => rule.languages)].at(-1)?.style.color;
}

test.describe('code-highlight plugin', () => {
  test('custom.css holds the token rules of the configured theme', () => {
    const css = readFileSync(path.join(ROOT, 'src/css/custom.css'), 'utf8');
    expect(css, 'paste tokenCss(options) into src/css/custom.css').toContain(tokenCss(configuredOptions()));
    expect(configuredOptions().theme).toBe(vsDarkAccessible);
  });

  test('every character of every fence in docs/ keeps its text and the colour prism-react-renderer gave it', async () => {
    const {theme} = configuredOptions();
    // prism-react-renderer merges a token's types' styles: one class stands for them only if each sets the same keys.
    for (const {style} of theme.styles) expect(Object.keys(style)).toEqual(['color']);
    const {normalizeTokens} = await import('prism-react-renderer');
    // The grammars the build loads (prismjs's), tokenized as prism-react-renderer would in the browser.
    const Prism = loadPrism(configuredOptions().languages);
    const highlight = await loadHighlighter(configuredOptions());
    const fences = docFences();
    expect(fences.length).toBeGreaterThan(50);
    const plain = colourKey(theme.plain.color);
    // What the page's stylesheet holds (tokenCss writes these rules): a span whose type lost its rule shows plain.
    const stylesheet = usedTokenStyles(configuredOptions());
    // Gathered and asserted once: an expect() per token costs more than the highlighting.
    const wrong: string[] = [];
    for (const {file, language, meta, body} of fences) {
      const where = path.relative(ROOT, file);
      const {code, html} = highlight(body, language, meta);
      if (decode(html) !== code) wrong.push(`${where}: the text is not kept`);
      if (html.includes('style=')) wrong.push(`${where}: an inline style`);
      const lang = (language ?? 'text').toLowerCase();
      const dictionary: Record<string, {color?: string}> = {};
      for (const {types, languages, style} of theme.styles) {
        if (languages && !languages.includes(lang as never)) continue;
        for (const type of types) dictionary[type] = {...dictionary[type], ...style};
      }
      // What prism-react-renderer shows, character by character…
      const grammar = Prism.languages[lang];
      const expected = normalizeTokens((grammar ? Prism.tokenize(code, grammar) : [code]) as never).flatMap((line) =>
        line.flatMap((token) => {
          // An empty line's one token holds its newline, which the HTML keeps between lines.
          if ((token as {empty?: boolean}).empty) return [];
          const merged = Object.assign({}, ...token.types.map((type) => dictionary[type])) as {color?: string};
          return Array.from(token.content, () => colourKey(merged.color ?? plain));
        }),
      );
      // …and what the stylesheet gives the HTML, by the innermost token class around each character.
      const shown: string[] = [];
      const open: (string | undefined)[] = [];
      for (const [, tag, classes, text] of html.matchAll(/(<\/span>|<span class="([^"]*)">)|([^<]+)/g)) {
        if (tag === '</span>') open.pop();
        else if (tag) open.push(/^token (\S+)$/.exec(classes!)?.[1]);
        else {
          const type = [...open].reverse().find((name) => name !== undefined);
          const colour = colourKey(cssColour(stylesheet, type, lang) ?? plain);
          for (const _character of decode(text!).replace(/\n/g, '')) shown.push(colour);
        }
      }
      const mismatch = expected.findIndex((colour, index) => colour !== shown[index]);
      const differing = mismatch >= 0 ? mismatch : Math.min(expected.length, shown.length);
      if (mismatch >= 0 || shown.length !== expected.length) {
        wrong.push(
          `${where}: character ${differing} of the ${lang} block is ${shown[differing]}, not ${expected[differing]}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  });

  test('line highlights from the metastring and from magic comments, which are removed; markup escaped, plain text bare, unknown languages plain', async () => {
    const highlight = await loadHighlighter(configuredOptions());
    const ranged = highlight('a=1\nb=2\nc=3\n', 'bash', '{2} run');
    expect(ranged.code).toBe('a=1\nb=2\nc=3');
    expect(ranged.html.split('\n')[1]).toMatch(
      // `b` looks like plain text in vsDark: no span of its own.
      /^<span class="theme-code-block-highlighted-line">b<span class="token operator">=</,
    );
    const commented = highlight('const a = 1;\n// highlight-next-line\nconst b = 2;\n', 'js');
    expect(commented.code).toBe('const a = 1;\nconst b = 2;');
    expect(commented.html).toContain(
      '<span class="theme-code-block-highlighted-line"><span class="token keyword">const',
    );
    expect(commented.html).not.toContain('highlight-next-line');

    expect(highlight('<a href="x">&</a>\n', 'html').html).toBe(
      // The space inside the tag is the tag's: one span.
      // `attr-name` looks like plain text in vsDark: no span.
      '<span class="token punctuation">&lt;</span><span class="token tag">a </span>href' +
        '<span class="token punctuation">="</span><span class="token attr-value">x</span>' +
        '<span class="token punctuation">"&gt;</span>&amp;<span class="token punctuation">&lt;/</span>' +
        '<span class="token tag">a</span><span class="token punctuation">&gt;</span>',
    );
    expect(highlight('plain <text>\n', undefined).html).toBe('plain &lt;text&gt;');
  });

  test('hands the CodeBlock the HTML as a property of the fence, and refuses line numbers naming the file', async () => {
    const transform = codeHighlight(configuredOptions());
    const properties: Record<string, unknown> = {className: ['language-json'], metastring: 'example="x"'};
    const code = {type: 'element', tagName: 'code', properties, children: [{type: 'text', value: '{"a": 1}\n'}]};
    const pre = {type: 'element', tagName: 'pre', position: {start: {line: 7, column: 1}}, children: [code]};
    const tree = {type: 'root', children: [pre]};
    const file = {path: path.join(ROOT, 'docs/x.mdx')};
    await transform(tree, file);
    expect(properties.highlighted).toBe(
      // vsDark gives `property` no colour of its own: plain text.
      '<span class="token punctuation">{</span>"a"' +
        // `operator` looks like `punctuation` in vsDark: one class for both.
        '<span class="token operator">:</span> <span class="token number">1</span><span class="token punctuation">}</span>',
    );
    properties.metastring = 'showLineNumbers';
    await expect(transform(tree, file)).rejects.toThrow(/docs\/x\.mdx:7: showLineNumbers/);
  });
});
