// Code is highlighted at build time (plugins/remark/code-highlight): plain Node checks over build/ (build first).
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, test} from '@playwright/test';

import config from '../docusaurus.config';
import {loadPrism} from '../lib/highlight';
import codeHighlight, {type Options} from '../plugins/remark/code-highlight';
import {BUILD_DIR, docRoutes, htmlFile} from './support/docs';

/** The longer regular expressions of the docs' grammars: a grammar in a script carries them as literals. */
function grammarSignatures(): string[] {
  const [, presetOptions] = (config.presets ?? [])[0] as [string, {docs: {rehypePlugins?: unknown[]}}];
  const entry = (presetOptions.docs.rehypePlugins ?? []).find(
    (plugin) => Array.isArray(plugin) && plugin[0] === codeHighlight,
  ) as [unknown, Options];
  const sources = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (value: unknown) => {
    if (value instanceof RegExp) {
      if (value.source.length >= 24) sources.add(value.source);
    } else if (value && typeof value === 'object' && !seen.has(value)) {
      seen.add(value);
      for (const child of Object.values(value)) walk(child);
    }
  };
  walk(loadPrism(entry[1].languages).languages);
  return [...sources];
}

/** Prism core's language-class pattern (`util.getLanguage`). */
const PRISM_CORE = String.raw`lang(?:uage)?-([\w-]+)`;

test.describe('code highlighted at build time', {tag: '@viewport-independent'}, () => {
  test("every block in a language carries token classes on every page, components' blocks included, and no inline token colour", () => {
    // A block left plain (a component's, or a language the highlighter does not load) would show no colour.
    const plain: string[] = [];
    const styled: string[] = [];
    const languages = new Set<string>();
    for (const route of docRoutes()) {
      const html = readFileSync(htmlFile(route), 'utf8');
      for (const [, language, body] of html.matchAll(
        /<pre[^>]*class="[^"]*prism-code language-([\w-]+)[^>]*>([\s\S]*?)<\/pre>/g,
      )) {
        if (language === 'text') continue;
        languages.add(language!);
        if (!body!.includes('class="token '))
          plain.push(`${route}: ${language} ${body!.replace(/<[^>]+>/g, '').slice(0, 60)}`);
      }
      if (/<span[^>]*class="?token[^>]*style=|<span[^>]*style="?color/.test(html)) styled.push(route);
      expect(html, `${route}: no per-line spans`).not.toContain('token-line');
    }
    const quickStart = readFileSync(htmlFile('/getting-started/quick-start'), 'utf8');
    for (const type of ['keyword', 'string', 'punctuation', 'operator']) {
      expect(quickStart, `a "token ${type}" span on the quick start`).toContain(`<span class="token ${type}">`);
    }
    expect([...languages]).toEqual(expect.arrayContaining(['bash', 'json', 'python', 'http', 'html', 'ts', 'js']));
    expect(plain, 'blocks with no token').toEqual([]);
    expect(styled, 'pages with inline token colours').toEqual([]);
  });

  test('no Prism grammar and no Prism core in any client script', () => {
    const signatures = grammarSignatures();
    expect(signatures.length).toBeGreaterThan(50);
    const found = readdirSync(path.join(BUILD_DIR, 'assets/js'))
      .filter((name) => name.endsWith('.js'))
      .flatMap((name) => {
        const text = readFileSync(path.join(BUILD_DIR, 'assets/js', name), 'utf8');
        return [
          ...signatures.filter((source) => text.includes(source)).map((source) => `${name}: /${source.slice(0, 40)}…/`),
          ...(text.includes(PRISM_CORE) ? [`${name}: Prism core`] : []),
        ];
      });
    expect(found).toEqual([]);
  });
});
