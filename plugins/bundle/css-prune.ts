/**
 * Docusaurus ships all of Infima in one render-blocking stylesheet and has no option to prune it; PurgeCSS
 * keeps rules named in the built HTML or JS. Why: BENCHMARKS.md, "Bytes shipped". The new hash in the file
 * name keeps the `immutable` cache rule for /assets from serving a stale file.
 */
import {createHash} from 'node:crypto';
import {readdir, readFile, rename, rm, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import {PurgeCSS} from 'purgecss';

export const PLUGIN_NAME = 'css-prune';

/** Selectors kept whatever the content: attribute-driven modes and rules that name no class, id or element. */
export const SAFELIST = {
  standard: [/^:/, /^\*/, /^html$/, /^body$/],
  greedy: [/data-theme/, /data-[\w-]+/],
};

async function filesUnder(dir: string, keep: (file: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true});
  return entries
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

export function rehashedName(fileName: string, css: string): string {
  const hash = createHash('md5').update(css).digest('hex').slice(0, 8);
  const renamed = fileName.replace(/\.[0-9a-f]{8}\.css$/, `.${hash}.css`);
  if (renamed === fileName && !fileName.endsWith(`.${hash}.css`)) {
    throw new Error(`[${PLUGIN_NAME}] ${fileName} has no 8-hex content hash to replace.`);
  }
  return renamed;
}

/** Other postBuild plugins read the HTML at the same time. */
export async function writeAtomically(file: string, content: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, file);
}

export type PruneResult = {file: string; renamedTo: string; bytesBefore: number; bytesAfter: number};

export async function pruneBuild(outDir: string): Promise<PruneResult[]> {
  const cssDir = path.join(outDir, 'assets', 'css');
  const stylesheets = await filesUnder(cssDir, (name) => name.endsWith('.css'));
  const html = await filesUnder(outDir, (name) => name.endsWith('.html'));
  const scripts = await filesUnder(outDir, (name) => name.endsWith('.js'));
  const purged = await new PurgeCSS().purge({
    content: [...html, ...scripts],
    css: stylesheets,
    safelist: SAFELIST,
    // @keyframes, @font-face and custom properties are tiny and referenced indirectly: all kept.
    keyframes: false,
    fontFace: false,
    variables: false,
  });
  const results: PruneResult[] = [];
  const renames = new Map<string, string>();
  for (const {file, css} of purged) {
    if (!file) continue;
    const original = await readFile(file, 'utf8');
    const renamedTo = path.join(path.dirname(file), rehashedName(path.basename(file), css));
    await writeFile(renamedTo, css);
    if (renamedTo !== file) await rm(file);
    renames.set(
      `/${path.relative(outDir, file).split(path.sep).join('/')}`,
      `/${path.relative(outDir, renamedTo).split(path.sep).join('/')}`,
    );
    results.push({file, renamedTo, bytesBefore: Buffer.byteLength(original), bytesAfter: Buffer.byteLength(css)});
  }
  await Promise.all(
    html.map(async (file) => {
      const before = await readFile(file, 'utf8');
      let after = before;
      for (const [from, to] of renames) after = after.split(from).join(to);
      if (after !== before) await writeAtomically(file, after);
    }),
  );
  // A stylesheet named anywhere else (a JS chunk loading CSS lazily) would now be a broken link.
  for (const file of scripts) {
    const text = await readFile(file, 'utf8');
    for (const from of renames.keys()) {
      if (text.includes(path.posix.basename(from))) {
        throw new Error(
          `[${PLUGIN_NAME}] ${path.relative(outDir, file)} names ${from}, which was renamed; only HTML references are rewritten.`,
        );
      }
    }
  }
  return results;
}

export default function cssPrune(): Plugin {
  return {
    name: PLUGIN_NAME,
    async postBuild({outDir}) {
      await pruneBuild(outDir);
    },
  };
}
