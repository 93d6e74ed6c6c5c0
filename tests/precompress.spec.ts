// The build's .gz and .br twins (`npm run precompress`, run by the build scripts): nginx sends them as they are.
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {brotliDecompressSync, gunzipSync} from 'node:zlib';
import {expect, test} from '@playwright/test';

import packageJson from '../package.json';
import {BUILD_DIR} from './support/docs';

/** The extensions the precompress script includes (`-i '**.html,**.js,…'`), read from package.json. */
function compressedExtensions(): string[] {
  const include = /-i '([^']+)'/.exec(packageJson.scripts.precompress)?.[1];
  if (!include) throw new Error('package.json: the precompress script has no -i list');
  return include.split(',').map((glob) => glob.replace(/^\*\*/, ''));
}

function servedFiles(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    if (entry.name.startsWith('.')) return []; // server-only files (.nginx/) are never served
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? servedFiles(file) : [file];
  });
}

test('@viewport-independent every text file of the build has .gz and .br twins that decompress to it', () => {
  expect(existsSync(path.join(BUILD_DIR, 'index.html')), 'no build/: run `npm run build:e2e` first').toBe(true);
  const extensions = compressedExtensions();
  const files = servedFiles(BUILD_DIR).filter((file) => extensions.includes(path.extname(file)));
  const relative = files.map((file) => path.relative(BUILD_DIR, file));
  // The kinds the site serves: pages, bundles, styles, the search index, Markdown twins, llms files, the API downloads.
  for (const pattern of [
    /\.html$/,
    /^assets\/js\/main\.[0-9a-f]+\.js$/,
    /\.css$/,
    /^search-index.*\.json$/,
    /\.md$/,
    /^llms-full\.txt$/,
    /^openapi\.yaml$/,
    /^postman\/.*\.json$/,
  ]) {
    expect(relative, `a file matching ${pattern}`).toContainEqual(expect.stringMatching(pattern));
  }
  for (const file of files) {
    const original = readFileSync(file);
    expect(gunzipSync(readFileSync(`${file}.gz`)).equals(original), `${file}.gz`).toBe(true);
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(original), `${file}.br`).toBe(true);
  }
});
