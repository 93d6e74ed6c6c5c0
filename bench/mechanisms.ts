/**
 * `npm run bench:mechanisms [-- --only css-prune,ask-ai-off] [--keep] [--check]`: what each build-time mechanism saves
 * today. Not a test: it prints figures and how they were measured. `--check` only checks that every patch applies.
 *
 * HEAD's tree is exported once (git archive). The site is built from a copy of it as it is (A), then once per
 * mechanism from a copy with that mechanism turned off by a small source change (B), each with
 * `docusaurus build --out-dir` and the e2e environment of `npm run build:e2e`. A patch whose target text is not
 * found exactly once stops the bench: the code has moved and the patch must follow it. Byte sizes are
 * deterministic, so a busy machine does not change them.
 */
import {spawnSync} from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

import {argValue} from './cli';
import {GZIP_LEVEL, gzipSize, routeAssets} from '../tests/support/bytes';
import {docRoutes} from '../tests/support/docs';

const ROOT = path.resolve(__dirname, '..');
const BUILD_ENV = {DOCS_CRASH_TEST: 'true', DOCUSAURUS_GENERATED_FILES_DIR_NAME: '.docusaurus-build', FORCE_COLOR: '0'};

type Patch = {file: string; find: string; replace: string} | {file: string; remove: true};
type Mechanism = {name: string; what: string; patches: Patch[]};

const BUNDLE = 'plugins/bundle/index.ts';
const SEARCH = 'plugins/search/index.ts';

const MECHANISMS: Mechanism[] = [
  {
    name: 'css-prune',
    what: 'plugins/bundle/css-prune.ts (PurgeCSS after the build)',
    patches: [{file: BUNDLE, find: '      await prune.postBuild!(props);\n', replace: ''}],
  },
  {
    name: 'self-contained-workers',
    what: 'plugins/bundle/self-contained-workers.ts (no vendors split)',
    patches: [{file: BUNDLE, find: ', ...workers.configureWebpack!(...args)', replace: ''}],
  },
  {
    name: 'no-client-prism',
    what: 'plugins/bundle/no-client-prism.ts + src/theme/prism-include-languages (stock file back)',
    patches: [
      {file: BUNDLE, find: '        ...prism.configureWebpack!(...args)?.resolve?.alias,\n', replace: ''},
      {file: 'src/theme/prism-include-languages', remove: true},
    ],
  },
  {
    name: 'highlight-guard',
    what: 'plugins/search/highlight-guard.ts + src/theme/SearchBar/guardedMark.ts (mark.js alias)',
    patches: [{file: SEARCH, find: ', searchHighlightGuard()]', replace: ']'}],
  },
  {
    name: 'ask-ai-off',
    what: 'plugins/search/ask-ai-off.ts (open-ask-ai aliased away)',
    patches: [{file: SEARCH, find: 'searchAskAiOff(options), ', replace: ''}],
  },
];

function git(...args: string[]): string {
  const result = spawnSync('git', ['-C', ROOT, ...args], {encoding: 'utf8', maxBuffer: 1 << 30});
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

function exportHead(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-mechanisms-head-'));
  const archive = spawnSync('git', ['-C', ROOT, 'archive', '--format=tar', 'HEAD'], {maxBuffer: 1 << 30});
  if (archive.status !== 0) throw new Error(`git archive HEAD: ${archive.stderr.toString()}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], {input: archive.stdout, maxBuffer: 1 << 30});
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);
  return dir;
}

/** Applies `patch` in `dir`; with `write` false it only checks that it applies. */
function applyPatch(dir: string, patch: Patch, write = true): void {
  const file = path.join(dir, patch.file);
  if (!existsSync(file)) throw new Error(`${patch.file} is gone: the mechanism moved, update bench/mechanisms.ts.`);
  if ('remove' in patch) {
    if (write) rmSync(file, {recursive: true});
    return;
  }
  const text = readFileSync(file, 'utf8');
  const found = text.split(patch.find).length - 1;
  if (found !== 1) {
    throw new Error(
      `${patch.file}: ${JSON.stringify(patch.find)} found ${found} times, not once: update bench/mechanisms.ts.`,
    );
  }
  if (write) writeFileSync(file, text.replace(patch.find, patch.replace));
}

/** Builds a patched copy of `sources`; the copy's directory is added to `made` first, for the clean-up. */
function build(sources: string, label: string, patches: Patch[], made: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), `docs-mechanisms-${label}-`));
  made.push(dir);
  cpSync(sources, dir, {recursive: true});
  symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
  for (const patch of patches) applyPatch(dir, patch);
  const outDir = path.join(dir, 'out');
  const started = Date.now();
  const result = spawnSync(path.join(dir, 'node_modules/.bin/docusaurus'), ['build', '--out-dir', outDir], {
    cwd: dir,
    env: {...process.env, ...BUILD_ENV},
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (result.status !== 0) {
    throw new Error(`build ${label} failed in ${dir}:\n${(result.stdout + result.stderr).slice(-4000)}`);
  }
  console.error(`built ${label} in ${Math.round((Date.now() - started) / 1000)} s`);
  return outDir;
}

function filesUnder(dir: string, extension: string): string[] {
  return readdirSync(dir, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** `assets/js/<id>.<hash>.js` for a chunk id or name. */
function chunkFile(buildDir: string, id: string): string {
  const dir = path.join(buildDir, 'assets/js');
  const name = readdirSync(dir).find((file) => file.startsWith(`${id}.`) && /\.[0-9a-f]{8}\.js$/.test(file));
  if (!name) throw new Error(`no file for chunk ${id} in ${dir}`);
  return path.join(dir, name);
}

type Files = {count: number; gzip: number};
type Figures = {
  routeJs: [number, number];
  routeCss: [number, number];
  js: Files;
  css: Files;
  /** The search worker: its file and every chunk it loads before it answers. */
  worker: number[];
  /** mark.js in its own chunk (loaded on the first highlight), or undefined when it is in the route's JS. */
  markJs: number | undefined;
};

function measure(buildDir: string): Figures {
  const routes = docRoutes(buildDir).map((route) => routeAssets(route, buildDir));
  const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];
  const files = (extension: string): Files => {
    const all = filesUnder(buildDir, extension);
    return {count: all.length, gzip: all.reduce((sum, file) => sum + gzipSize(file), 0)};
  };
  const routeScripts = routes[0]!.js.map((item) => readFileSync(item.file, 'utf8')).join('\n');
  const workerId = /new Worker\(new URL\(\w+\.p\+\w+\.u\("?([\w~.-]+?)"?\)/.exec(routeScripts)?.[1];
  if (!workerId) throw new Error(`no search worker started from the route's scripts in ${buildDir}`);
  const workerFile = chunkFile(buildDir, workerId);
  // A split worker's startup (`x`) waits for its other chunks, which it fetches with importScripts.
  const workerText = readFileSync(workerFile, 'utf8');
  const startup = /\.x=function\(\)\{return (.*?)\.then\(/.exec(workerText)?.[1] ?? '';
  const loaded = [...startup.matchAll(/"([\w~.-]+)"/g)].map((match) => match[1]!);
  if (workerText.includes('importScripts') && loaded.length === 0) {
    throw new Error(`${workerFile} can load chunks, but the bench finds none in its startup: update the pattern.`);
  }
  const markJs = readdirSync(path.join(buildDir, 'assets/js')).find((file) => /^mark-js\.[0-9a-f]{8}\.js$/.test(file));
  return {
    routeJs: range(routes.map((route) => route.jsGzip)),
    routeCss: range(routes.map((route) => route.cssGzip)),
    js: files('.js'),
    css: files('.css'),
    worker: [workerFile, ...loaded.map((id) => chunkFile(buildDir, id))].map(gzipSize),
    markJs: markJs ? gzipSize(path.join(buildDir, 'assets/js', markJs)) : undefined,
  };
}

const bytes = (value: number) => `${value.toLocaleString('en-GB')} B`;
const span = ([low, high]: [number, number]) => (low === high ? bytes(low) : `${bytes(low)}–${bytes(high)}`);
const change = (a: number, b: number) =>
  `${b - a >= 0 ? '+' : ''}${(b - a).toLocaleString('en-GB')} B (${(((b - a) / a) * 100).toFixed(1)} %)`;
const worker = (sizes: number[]) =>
  `${sizes.length} request${sizes.length > 1 ? 's' : ''}, ${sizes.map(bytes).join(' + ')}`;

/** One row of the table: B's figures with their change from A, or A's alone. */
function row(name: string, b: Figures, a?: Figures): string {
  const versus = (from: number, to: number) => (a ? `, ${change(from, to)}` : '');
  return [
    name,
    `${span(b.routeJs)}${versus(a?.routeJs[1] ?? 0, b.routeJs[1])}`,
    `${span(b.routeCss)}${versus(a?.routeCss[1] ?? 0, b.routeCss[1])}`,
    `${b.js.count} (${bytes(b.js.gzip)})${versus(a?.js.gzip ?? 0, b.js.gzip)}`,
    `${b.css.count} (${bytes(b.css.gzip)})`,
    worker(b.worker),
    b.markJs === undefined ? 'in the route JS' : `own chunk, ${bytes(b.markJs)}`,
  ].join(' | ');
}

function main(): void {
  const only = argValue('--only')?.split(',');
  const chosen = only ? MECHANISMS.filter((mechanism) => only.includes(mechanism.name)) : MECHANISMS;
  if (only && chosen.length !== only.length) {
    throw new Error(`--only: known mechanisms are ${MECHANISMS.map((mechanism) => mechanism.name).join(', ')}`);
  }
  if (process.argv.includes('--check')) {
    // No build: every patch still finds its target in the working tree (a test runs this).
    for (const mechanism of chosen) for (const patch of mechanism.patches) applyPatch(ROOT, patch, false);
    console.log(`every patch applies: ${chosen.map((mechanism) => mechanism.name).join(', ')}`);
    return;
  }
  const commit = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain').split('\n').filter(Boolean).length;
  const sources = exportHead();
  const made: string[] = [sources];
  try {
    const baselineOut = build(sources, 'A', [], made);
    const a = measure(baselineOut);
    const rows = [row('A: as it is', a)];
    for (const mechanism of chosen) {
      const out = build(sources, mechanism.name, mechanism.patches, made);
      rows.push(row(`B: without ${mechanism.name}`, measure(out), a));
    }
    console.log(`Build-time mechanisms, A/B at ${commit} (HEAD's tree; ${dirty} uncommitted changes not included)`);
    console.log(
      `Each build: ${Object.entries(BUILD_ENV)
        .map(([key, value]) => `${key}=${value}`)
        .join(
          ' ',
        )} docusaurus build --out-dir <tmp> in a copy of HEAD (node_modules linked), B with one mechanism off:`,
    );
    for (const mechanism of chosen) {
      const changes = mechanism.patches.map((patch) =>
        'remove' in patch
          ? `${patch.file} removed`
          : `${patch.file}: ${JSON.stringify(patch.find)} → ${JSON.stringify(patch.replace)}`,
      );
      console.log(`  ${mechanism.name}: ${mechanism.what}; ${changes.join('; ')}`);
    }
    console.log(
      `Sizes: zlib gzip level ${GZIP_LEVEL} of each file. Route JS/CSS: the <script src> / stylesheet files a doc route's HTML references (tests/support/bytes.ts), min–max over the sitemap's routes; the change is on the max. Files: every .js / .css the build emits, count (gzip sum). Search worker: its file and the chunks it importScripts before answering. mark.js: its lazy chunk on the first highlight, or in the route's JS.`,
    );
    console.log('');
    console.log('| Build | JS per route | CSS per route | JS files | CSS files | Search worker | mark.js |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const line of rows) console.log(`| ${line} |`);
  } finally {
    if (process.argv.includes('--keep')) console.error(`kept: ${made.join(' ')}`);
    else for (const dir of made) rmSync(dir, {recursive: true, force: true});
  }
}

main();
