/**
 * The HTML of build/: the W3C Nu checker (npm vnu-jar, run on the system's Java; .ci/run installs
 * default-jre-headless) reports no error on any page, and what it cannot see (names of regions, scopes of headers).
 */
import {spawnSync} from 'node:child_process';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {expect, test} from '@playwright/test';
import type {Element, Root} from 'hast';
import {toText} from 'hast-util-to-text';
import rehypeParse from 'rehype-parse';
import {unified} from 'unified';

import {BUILD_DIR, docRoutes, htmlFile} from './support/docs';

type VnuMessage = {type: string; url?: string; lastLine?: number; firstColumn?: number; message: string};

/** Every .html file under build/: the doc pages, 404.html, the search page. */
const htmlFiles = () =>
  readdirSync(BUILD_DIR, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
const relative = (file: string) => path.relative(BUILD_DIR, file);

function runVnu(files: readonly string[]): VnuMessage[] {
  // Language detection only ever adds warnings, which --errors-only drops: it is skipped for its time.
  const args = ['--errors-only', '--no-langdetect', '--format', 'json', '--stdout', ...files];
  const jar = require.resolve('vnu-jar/build/dist/vnu.jar');
  const result = spawnSync('java', ['-jar', jar, ...args], {encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
  if (result.error) {
    throw new Error(`could not run java (install default-jre-headless, as .ci/run does): ${result.error.message}`);
  }
  try {
    return (JSON.parse(result.stdout) as {messages: VnuMessage[]}).messages;
  } catch {
    throw new Error(`vnu exited with ${result.status} and no JSON report:\n${result.stdout}\n${result.stderr}`);
  }
}

const elements = (node: Root | Element, tag: string): Element[] =>
  node.children.flatMap((child) =>
    child.type === 'element' ? [...(child.tagName === tag ? [child] : []), ...elements(child, tag)] : [],
  );

test.describe('valid HTML (W3C Nu checker)', {tag: '@viewport-independent'}, () => {
  test('no page of the build has an error', () => {
    test.setTimeout(180_000);
    const files = htmlFiles();
    expect(files, 'every doc page and 404.html are checked').toEqual(
      expect.arrayContaining([...docRoutes().map((route) => htmlFile(route)), path.join(BUILD_DIR, '404.html')]),
    );
    const errors = runVnu(files)
      .filter((message) => message.type !== 'info')
      .map((message) => {
        const file = message.url ? relative(fileURLToPath(message.url)) : '?';
        return `${file}:${message.lastLine ?? '?'}:${message.firstColumn ?? '?'}: ${message.message}`;
      });
    test
      .info()
      .annotations.push({type: 'checked', description: `${files.length} pages: ${files.map(relative).join(', ')}`});
    expect(errors, 'Nu checker errors (file:line:column: message)').toEqual([]);
  });

  // A table with row headers is not a simple table: screen readers need each column header's scope.
  test('the scroll regions of a page have names of their own (each is a landmark); a table with row headers gives every column header scope="col"', () => {
    const problems: string[] = [];
    for (const file of htmlFiles()) {
      const html = readFileSync(file, 'utf8');
      const names = [...html.matchAll(/<[a-z][^>]*\srole=(?:"region"|region)(?=[\s>])[^>]*>/gi)].map(
        (match) =>
          /\saria-label=(?:"([^"]*)"|([^\s>]+))/i
            .exec(match[0])
            ?.slice(1)
            .find((value) => value !== undefined) ?? '(no name)',
      );
      const repeated = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
      problems.push(...repeated.map((name) => `${relative(file)}: more than one region named "${name}"`));
      // Only a page that names a row scope can hold a row header: the others are not parsed.
      if (!/\sscope\s*=\s*["']?row/i.test(html)) continue;
      for (const table of elements(unified().use(rehypeParse).parse(html), 'table')) {
        if (!elements(table, 'th').some((th) => th.properties.scope === 'row')) continue;
        const unscoped = elements(table, 'thead')
          .flatMap((head) => elements(head, 'th'))
          .filter((th) => !th.properties.scope);
        problems.push(...unscoped.map((th) => `${relative(file)}: column header "${toText(th)}" has no scope`));
      }
    }
    expect(problems).toEqual([]);
  });
});
