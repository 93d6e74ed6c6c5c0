import {test, expect} from '@playwright/test';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {brotliDecompressSync, gunzipSync} from 'node:zlib';

import {compressibleFiles, MIN_BYTES, precompressDir} from './index';

const BUILD_DIR = path.resolve(__dirname, '../../build');

function expectTwinsOf(file: string): void {
  const original = readFileSync(file);
  expect(existsSync(`${file}.gz`), `${file}.gz`).toBe(true);
  expect(existsSync(`${file}.br`), `${file}.br`).toBe(true);
  expect(gunzipSync(readFileSync(`${file}.gz`)).equals(original), `${file}.gz decompresses to the file`).toBe(true);
  expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(original), `${file}.br decompresses to the file`).toBe(true);
}

test.describe('precompress', () => {
  test('writes .gz and .br twins of text files, none of images, small files or dot-directories', async () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    try {
      const text = (n: number) => 'const answer = 42; // a line of text\n'.repeat(n);
      mkdirSync(path.join(outDir, 'assets/js'), {recursive: true});
      mkdirSync(path.join(outDir, '.nginx'));
      mkdirSync(path.join(outDir, 'postman'));
      const compressible = ['index.html', 'assets/js/main.0123abcd.js', 'page.md', 'llms.txt', 'openapi.yaml', 'postman/api.postman_collection.json', 'img.svg', 'STYLE.CSS'];
      for (const name of compressible) writeFileSync(path.join(outDir, name), text(50));
      writeFileSync(path.join(outDir, 'robots.txt'), 'x'.repeat(MIN_BYTES - 1));
      writeFileSync(path.join(outDir, 'photo.png'), Buffer.alloc(4096, 7));
      writeFileSync(path.join(outDir, '.nginx/csp.conf'), text(50));

      await precompressDir(outDir);

      for (const name of compressible) expectTwinsOf(path.join(outDir, name));
      for (const name of ['robots.txt', 'photo.png', '.nginx/csp.conf']) {
        expect(existsSync(path.join(outDir, `${name}.gz`)), name).toBe(false);
        expect(existsSync(path.join(outDir, `${name}.br`)), name).toBe(false);
      }
      // Running it again (a rebuilt tree) compresses the originals, never the twins.
      await precompressDir(outDir);
      expect(readdirSync(outDir).filter((name) => /\.(gz|br)\.(gz|br)$/.test(name))).toEqual([]);
    } finally {
      rmSync(outDir, {recursive: true, force: true});
    }
  });

  test('build/: every compressible file has both twins, each decompressing to the file', async () => {
    expect(existsSync(path.join(BUILD_DIR, 'index.html')), 'no build/: run `npm run build:e2e` (or `npm run build`) first').toBe(true);
    const files = await compressibleFiles(BUILD_DIR);
    const served = files.map((file) => path.relative(BUILD_DIR, file));
    // The kinds the site serves: pages, bundles, styles, the search index, SVG, Markdown twins,
    // llms.txt, the OpenAPI document and the Postman files.
    for (const pattern of [/\.html$/, /^assets\/js\/main\.[0-9a-f]+\.js$/, /\.css$/, /^search-index-[0-9a-f]+\.json$/, /\.svg$/, /\.md$/, /^llms\.txt$/, /^llms-full\.txt$/, /^openapi\.yaml$/, /^postman\/.*\.json$/]) {
      expect(served.some((file) => pattern.test(file)), `a file matching ${pattern}`).toBe(true);
    }
    for (const file of files) expectTwinsOf(file);
  });
});
