/**
 * `tsx scripts/precompress.ts [dir]`: writes the .gz and .br twins of build/ (or `dir`); run by
 * `npm run build` and `npm run build:e2e` after `docusaurus build` (see plugins/precompress).
 */
import {existsSync} from 'node:fs';
import path from 'node:path';
import {precompressDir} from '../plugins/precompress';

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'build'));
  if (!existsSync(path.join(outDir, 'index.html'))) {
    console.error(`precompress: ${outDir} holds no build (no index.html); run \`docusaurus build\` first.`);
    process.exit(1);
  }
  const started = Date.now();
  const result = await precompressDir(outDir);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  console.log(
    `precompress: ${result.files} files, ${kb(result.rawBytes)} → gzip ${kb(result.gzipBytes)}, brotli ${kb(result.brotliBytes)} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
