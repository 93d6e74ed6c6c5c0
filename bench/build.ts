/**
 * `npm run bench:build [-- --runs N]`: cold production builds with and without Docusaurus Faster,
 * in one run, alternating. Not a test: it prints figures and how they were measured.
 *
 * Each build: `.docusaurus-build/` (its generated files, as `npm run build`: never the dev server's
 * `.docusaurus/`), `node_modules/.cache/` and the output dir are deleted first (cold), then
 * `docusaurus build --out-dir <tmp>` runs with DOCS_FASTER=true|false (read by
 * docusaurus.config.ts), so `build/` is never touched. Measured:
 * - wall time: performance.now() around the child process, spawn to exit;
 * - peak memory: the /proc/<pid>/status VmRSS of the build's whole process tree (docusaurus and every
 *   worker it starts), summed, sampled every 100 ms; the maximum sum is reported (Linux only).
 */
import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync} from 'node:fs';
import {cpus, loadavg, tmpdir, totalmem} from 'node:os';
import path from 'node:path';
import {treeRss} from '../tests/support/process-tree';
import {argValue} from './cli';

const ROOT = path.resolve(__dirname, '..');
const DOCUSAURUS = path.join(ROOT, 'node_modules/.bin/docusaurus');
const SAMPLE_MS = 100;
/** The generated-files directory `npm run build` uses (DOCUSAURUS_GENERATED_FILES_DIR_NAME in package.json). */
const GENERATED_DIR = '.docusaurus-build';

type Variant = {name: string; faster: boolean};
const VARIANTS: Variant[] = [
  {name: 'Faster (Rspack, SWC, Lightning CSS)', faster: true},
  {name: 'webpack (Babel, Terser)', faster: false},
];

type Result = {wallMs: number; peakRssBytes: number; phases: Map<string, number>};

/** Docusaurus's own phase timers (DOCUSAURUS_PERF_LOGGER), the ones both bundlers go through. */
const PHASES: [label: string, pattern: RegExp][] = [
  ['Load site (config, plugins, content)', /\[PERF\] Build > \w+ > Load site - ([\d.]+) (ms|seconds)/],
  ['Bundling (client + server)', /\[PERF\] Build > \w+ > Bundling with \w+ - ([\d.]+) (ms|seconds)/],
  ['SSG (static HTML)', /\[PERF\] Build > \w+ > SSG - ([\d.]+) (ms|seconds)/],
  ['postBuild (search index, llms, CSS prune …)', /\[PERF\] Build > \w+ > postBuild\(\) - ([\d.]+) (ms|seconds)/],
];

function parsePhases(log: string): Map<string, number> {
  const phases = new Map<string, number>();
  for (const [label, pattern] of PHASES) {
    const match = pattern.exec(log);
    if (match) phases.set(label, Number(match[1]) * (match[2] === 'seconds' ? 1000 : 1));
  }
  return phases;
}

function clearCaches(outDir: string): void {
  for (const dir of [path.join(ROOT, GENERATED_DIR), path.join(ROOT, 'node_modules/.cache'), outDir]) {
    rmSync(dir, {recursive: true, force: true});
  }
}

async function build(variant: Variant, outDir: string): Promise<Result> {
  clearCaches(outDir);
  const started = performance.now();
  const child = spawn(DOCUSAURUS, ['build', '--out-dir', outDir], {
    cwd: ROOT,
    env: {
      ...process.env,
      DOCUSAURUS_GENERATED_FILES_DIR_NAME: GENERATED_DIR,
      DOCS_FASTER: String(variant.faster),
      DOCS_CRASH_TEST: 'false',
      FORCE_COLOR: '0',
      DOCUSAURUS_PERF_LOGGER: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  let peak = 0;
  const timer = setInterval(() => {
    if (child.pid) peak = Math.max(peak, treeRss(child.pid));
  }, SAMPLE_MS);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - started;
  clearInterval(timer);
  if (code !== 0) {
    throw new Error(`${variant.name}: docusaurus build exited with ${code}\n${log.slice(-4000)}`);
  }
  if (!existsSync(path.join(outDir, 'index.html'))) {
    throw new Error(`${variant.name}: no index.html in ${outDir}`);
  }
  return {wallMs, peakRssBytes: peak, phases: parsePhases(log)};
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function main(): Promise<void> {
  const runs = Number(argValue('--runs') ?? 1);
  const outDir = mkdtempSync(path.join(tmpdir(), 'docs-bench-build-'));
  const results = new Map<string, Result[]>(VARIANTS.map((variant) => [variant.name, []]));
  console.log(
    `Cold builds, ${runs} run(s) per variant, alternating; ${cpus().length} CPUs, ${mib(totalmem())} RAM, load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  try {
    for (let run = 1; run <= runs; run += 1) {
      for (const variant of VARIANTS) {
        const result = await build(variant, outDir);
        results.get(variant.name)!.push(result);
        console.log(`  run ${run} ${variant.name}: ${seconds(result.wallMs)}, peak RSS ${mib(result.peakRssBytes)}`);
      }
    }
  } finally {
    rmSync(outDir, {recursive: true, force: true});
  }
  const summary = VARIANTS.map((variant) => {
    const list = results.get(variant.name)!;
    return {variant, wall: median(list.map((item) => item.wallMs)), rss: median(list.map((item) => item.peakRssBytes))};
  });
  console.log('');
  console.log('| Build | Wall time (median) | Peak RSS (median) |');
  console.log('| --- | --- | --- |');
  for (const {variant, wall, rss} of summary) console.log(`| ${variant.name} | ${seconds(wall)} | ${mib(rss)} |`);
  const [faster, webpack] = summary;
  console.log('');
  console.log(
    `Faster / webpack wall time: ${(faster!.wall / webpack!.wall).toFixed(2)} (${(webpack!.wall / faster!.wall).toFixed(2)}× faster)`,
  );
  console.log(`Faster / webpack peak RSS: ${(faster!.rss / webpack!.rss).toFixed(2)}`);
  console.log('');
  console.log("Where the time goes (medians of Docusaurus's own phase timers; the rest is Node and CLI start-up):");
  console.log('');
  console.log('| Phase | Faster | webpack | webpack / Faster |');
  console.log('| --- | --- | --- | --- |');
  for (const [label] of PHASES) {
    const phase = (name: string) => median(results.get(name)!.map((item) => item.phases.get(label) ?? NaN));
    const fast = phase(faster!.variant.name);
    const slow = phase(webpack!.variant.name);
    console.log(`| ${label} | ${seconds(fast)} | ${seconds(slow)} | ${(slow / fast).toFixed(1)}× |`);
  }
  console.log('');
  console.log(
    'How: each build is cold (.docusaurus-build/, node_modules/.cache/ and the output dir deleted first), `docusaurus build',
  );
  console.log(
    '--out-dir <tmp>` with DOCS_FASTER=true|false and DOCUSAURUS_PERF_LOGGER=true (phase times); wall time = spawn',
  );
  console.log(
    `to exit (performance.now); peak RSS = highest sum of VmRSS over the build's process tree, sampled every ${SAMPLE_MS} ms`,
  );
  console.log(
    'from /proc; with an even number of runs the "median" is the lower middle value. Shared machines make all of it noisy.',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
