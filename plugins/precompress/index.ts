/**
 * Precompression: a `.gz` (gzip level 9) and a `.br` (brotli quality 11) twin beside every
 * compressible file of the build, so nginx (`gzip_static`, `brotli_static`; deploy/nginx.conf)
 * sends compressed answers without compressing per request.
 *
 * It runs as its own step after `docusaurus build` (scripts/precompress.ts, in the `build` and
 * `build:e2e` scripts), not as a Docusaurus plugin: Docusaurus runs every plugin's `postBuild` at
 * once, and several of them (css-prune, csp, llms-txt, api-artifacts) write or rename files in the
 * output while the others run, so no `postBuild` can know it sees the final files.
 */
import {readdir, readFile, stat, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {promisify} from 'node:util';
import {brotliCompress, constants, gzip} from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Text formats of the build: pages, scripts, styles, the search index, SVG, Markdown twins, llms.txt, OpenAPI, Postman, sitemap. */
export const COMPRESSIBLE_EXTENSIONS = ['.html', '.js', '.mjs', '.css', '.json', '.svg', '.md', '.txt', '.yaml', '.yml', '.xml', '.webmanifest', '.map'];

/** Smaller files gain nothing (a twin would be about as big); nginx's `gzip_min_length` is the same. */
export const MIN_BYTES = 256;

export const TWIN_EXTENSIONS = ['.gz', '.br'] as const;

export function isCompressible(file: string): boolean {
  return COMPRESSIBLE_EXTENSIONS.includes(path.extname(file).toLowerCase());
}

/** Every compressible file under `dir` of at least MIN_BYTES; dot-directories (server-only files) are skipped. */
export async function compressibleFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {withFileTypes: true});
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const file = path.join(dir, entry.name);
      if (entry.name.startsWith('.')) return [];
      if (entry.isDirectory()) return compressibleFiles(file);
      if (!entry.isFile() || !isCompressible(file)) return [];
      return (await stat(file)).size >= MIN_BYTES ? [file] : [];
    }),
  );
  return nested.flat();
}

export function gzipBytes(content: Buffer): Promise<Buffer> {
  return gzipAsync(content, {level: constants.Z_BEST_COMPRESSION});
}

export function brotliBytes(content: Buffer): Promise<Buffer> {
  return brotliAsync(content, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
}

export type PrecompressResult = {files: number; rawBytes: number; gzipBytes: number; brotliBytes: number};

/** Writes `file.gz` and `file.br` for every compressible file under `outDir` (zlib's thread pool does the work). */
export async function precompressDir(outDir: string): Promise<PrecompressResult> {
  const files = await compressibleFiles(outDir);
  const result: PrecompressResult = {files: files.length, rawBytes: 0, gzipBytes: 0, brotliBytes: 0};
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      const [gz, br] = await Promise.all([gzipBytes(content), brotliBytes(content)]);
      await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
      result.rawBytes += content.length;
      result.gzipBytes += gz.length;
      result.brotliBytes += br.length;
    }),
  );
  return result;
}
