import {test, expect} from '@playwright/test';
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

import config from '../../docusaurus.config';
import {validateOptions, type Options, type PluginOptions} from './options';
import {languagesInLoadOrder, leanPrismSource, SECTION_END, SECTION_START, withGrammars} from './lean-prism';

const ROOT = path.resolve(__dirname, '../..');
const normalize = normalizePluginOptions as unknown as OptionValidationContext<Options, PluginOptions>['validate'];
const validate = (options: Options | Record<string, unknown>) =>
  validateOptions({validate: normalize, options: options as Options});

/** The `languages` option docusaurus.config.ts gives this plugin. */
function configuredLanguages(): string[] {
  const entry = (config.plugins ?? []).find(
    (plugin) => Array.isArray(plugin) && String(plugin[0]).includes('plugins/bundle'),
  );
  return ((entry as [string, PluginOptions] | undefined)?.[1].prismLanguages ?? []) as string[];
}

/** Every ```lang of the docs. */
function fenceLanguages(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, {withFileTypes: true})) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.mdx?$/.test(entry.name)) {
        for (const match of readFileSync(file, 'utf8').matchAll(/^\s*```([\w-]+)/gm)) found.add(match[1]!);
      }
    }
  };
  walk(path.join(ROOT, 'docs'));
  return found;
}

/** Imports the generated module (it imports react and clsx, so it is written inside the repository). */
async function importLean(
  languages: string[],
): Promise<{Prism: {languages: Record<string, unknown>; tokenize: (code: string, grammar: unknown) => unknown[]}}> {
  const dir = mkdtempSync(path.join(ROOT, 'node_modules', '.lean-prism-test-'));
  try {
    const file = path.join(dir, 'prism-react-renderer.mjs');
    writeFileSync(file, leanPrismSource(languages));
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

test.describe('lean-prism plugin', () => {
  test('requires a non-empty list of Prism ids', () => {
    expect(validate({prismLanguages: ['json']}).prismLanguages).toEqual(['json']);
    expect(() => validate({})).toThrow(/prismLanguages/);
    expect(() => validate({prismLanguages: []})).toThrow(/prismLanguages/);
    expect(() => validate({prismLanguages: ['../x']})).toThrow(/prismLanguages/);
  });

  test('adds what a language requires, in load order, and rejects unknown ids', () => {
    expect(languagesInLoadOrder(['typescript'])).toEqual(['clike', 'javascript', 'typescript']);
    expect(() => languagesInLoadOrder(['json', 'klingon'])).toThrow(/unknown Prism language\(s\): klingon/);
  });

  test('fails loudly when prism-react-renderer changes its layout', () => {
    expect(() => withGrammars('export const x = 1;', [])).toThrow(/no longer has the/);
    expect(() => withGrammars(`${SECTION_END}\n${SECTION_START}\n`, [])).toThrow(/no longer has the/);
  });

  test('the generated module registers exactly the configured grammars and still highlights', async () => {
    const languages = configuredLanguages();
    expect(languages.length).toBeGreaterThan(0);
    const {Prism} = await importLean(languages);
    for (const id of languagesInLoadOrder(languages)) expect(Object.keys(Prism.languages)).toContain(id);
    // Some of the grammars prism-react-renderer bundles, which the docs never use.
    for (const id of ['swift', 'kotlin', 'rust', 'go', 'cpp', 'graphql', 'yaml', 'jsx'])
      expect(Object.keys(Prism.languages)).not.toContain(id);
    const tokens = Prism.tokenize('const order: Order = await client.orders.create();', Prism.languages.typescript);
    expect(tokens.some((token) => typeof token === 'object' && (token as {type: string}).type === 'keyword')).toBe(
      true,
    );
  });

  test('every code-fence language of docs/ is registered (directly or as an alias)', async () => {
    const {Prism} = await importLean(configuredLanguages());
    const fences = [...fenceLanguages()];
    expect(fences.length).toBeGreaterThan(0);
    const missing = fences.filter((language) => !(language in Prism.languages));
    expect(missing, 'add these to PRISM_LANGUAGES in docusaurus.config.ts').toEqual([]);
  });
});
