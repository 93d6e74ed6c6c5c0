/**
 * Valid HTML: the W3C Nu checker (npm vnu-jar, run on the system's Java; .ci/run installs
 * default-jre-headless) reports no error on any HTML page of build/ (build first). Node only, no browser
 * (tagged @viewport-independent: run once, not again for the phone).
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

const VNU_JAR = require.resolve('vnu-jar/build/dist/vnu.jar');

type VnuMessage = {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  firstColumn?: number;
  message: string;
  extract?: string;
};

/** Every .html file under build/: the doc pages, 404.html, the search page. */
function htmlFiles(): string[] {
  return readdirSync(BUILD_DIR, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

const relative = (file: string) => path.relative(BUILD_DIR, file);

function runVnu(files: readonly string[]): VnuMessage[] {
  const result = spawnSync('java', ['-jar', VNU_JAR, '--errors-only', '--format', 'json', '--stdout', ...files], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) {
    throw new Error(`could not run java (install default-jre-headless, as .ci/run does): ${result.error.message}`);
  }
  try {
    return (JSON.parse(result.stdout) as {messages: VnuMessage[]}).messages;
  } catch {
    throw new Error(`vnu exited with ${result.status} and no JSON report:\n${result.stdout}\n${result.stderr}`);
  }
}

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

  test('the scroll regions of a page have names of their own (each is a landmark)', () => {
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
    }
    expect(problems).toEqual([]);
  });

  // A table with row headers is not a simple table: screen readers need each column header's scope.
  test('a table with row headers gives every column header scope="col"', () => {
    const problems: string[] = [];
    const elements = (node: Root | Element, tag: string): Element[] =>
      node.children.flatMap((child) =>
        child.type === 'element' ? [...(child.tagName === tag ? [child] : []), ...elements(child, tag)] : [],
      );
    for (const file of htmlFiles()) {
      const tree = unified().use(rehypeParse).parse(readFileSync(file, 'utf8'));
      for (const table of elements(tree, 'table')) {
        const headers = elements(table, 'th');
        if (!headers.some((th) => th.properties.scope === 'row')) continue;
        const unscoped = elements(table, 'thead')
          .flatMap((head) => elements(head, 'th'))
          .filter((th) => !th.properties.scope);
        problems.push(...unscoped.map((th) => `${relative(file)}: column header "${toText(th)}"`));
      }
    }
    expect(problems).toEqual([]);
  });
});
