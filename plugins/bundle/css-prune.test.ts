import {test, expect} from '@playwright/test';
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';

import {pruneBuild, rehashedName} from './css-prune';
import selfContainedWorkers from './self-contained-workers';

const CSS = [
  '.used-in-html{color:red}',
  '.used-in-js{color:green}',
  '.never-used{color:blue}',
  '.card__header{padding:1rem}',
  ':focus-visible{outline:2px solid}',
  '[data-theme=dark] .used-in-html{color:pink}',
  '@keyframes spin{to{transform:rotate(1turn)}}',
].join('\n');

/** A fresh build of two pages, one stylesheet and a bundle ending in `extraJs`, in the test's output directory. */
function buildOf(extraJs: string): string {
  const outDir = test.info().outputPath('build');
  for (const dir of ['assets/css', 'assets/js', 'docs']) mkdirSync(path.join(outDir, dir), {recursive: true});
  writeFileSync(path.join(outDir, 'assets/css/styles.0123abcd.css'), CSS);
  const page = (title: string) =>
    `<!doctype html><html data-theme="light"><head><title>${title}</title><link rel="stylesheet" href="/assets/css/styles.0123abcd.css"></head><body><p class="used-in-html">x</p></body></html>`;
  writeFileSync(path.join(outDir, 'index.html'), page('Home'));
  writeFileSync(path.join(outDir, 'docs/page.html'), page('Page'));
  writeFileSync(path.join(outDir, 'assets/js/main.js'), `el.className = "used-in-js";${extraJs}`);
  return outDir;
}

test.describe('css-prune plugin', () => {
  test('keeps what the HTML and JS name, drops the rest, and renames the stylesheet by its new content', async () => {
    const outDir = buildOf('');
    const [result] = await pruneBuild(outDir);
    const files = readdirSync(path.join(outDir, 'assets/css'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^styles\.[0-9a-f]{8}\.css$/);
    expect(files[0]).not.toBe('styles.0123abcd.css');
    expect(result!.bytesAfter).toBeLessThan(result!.bytesBefore);
    const css = readFileSync(path.join(outDir, 'assets/css', files[0]!), 'utf8');
    for (const kept of ['.used-in-html', '.used-in-js', ':focus-visible', '[data-theme=dark] .used-in-html'])
      expect(css).toContain(kept);
    expect(css).toContain('@keyframes spin');
    for (const dropped of ['.never-used', '.card__header']) expect(css).not.toContain(dropped);
    for (const page of ['index.html', 'docs/page.html']) {
      const html = readFileSync(path.join(outDir, page), 'utf8');
      expect(html).toContain(`href="/assets/css/${files[0]}"`);
      expect(html).not.toContain('styles.0123abcd.css');
    }
    expect(existsSync(path.join(outDir, 'assets/css/styles.0123abcd.css'))).toBe(false);
  });

  test('refuses a build whose JavaScript names the stylesheet (it would break after the rename)', async () => {
    const outDir = buildOf('loadCss("/assets/css/styles.0123abcd.css");');
    await expect(pruneBuild(outDir)).rejects.toThrow(/names \/assets\/css\/styles\.0123abcd\.css/);
  });

  test('a file name without a content hash is an error, not a silent overwrite', () => {
    expect(rehashedName('styles.0123abcd.css', 'a{}')).toMatch(/^styles\.[0-9a-f]{8}\.css$/);
    expect(() => rehashedName('styles.css', 'a{}')).toThrow(/no 8-hex content hash/);
  });
});

test('self-contained-workers turns off the defaultVendors split of the client bundle only', () => {
  const configureWebpack = selfContainedWorkers().configureWebpack as (config: object, isServer: boolean) => object;
  expect(configureWebpack({}, false)).toEqual({optimization: {splitChunks: {cacheGroups: {defaultVendors: false}}}});
  expect(configureWebpack({}, true)).toEqual({});
});
