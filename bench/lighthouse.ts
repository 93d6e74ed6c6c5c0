/**
 * `npm run bench:lighthouse [-- --runs N] [--routes /,/basics/sdk] [--presets mobile,desktop]`:
 * Lighthouse on every doc page of build/sitemap.xml, mobile and desktop presets, against the existing build/
 * (run `npm run build` first) served with compression (bench/serve-build.ts: nginx with
 * deploy/nginx.conf when both are there, else a Node gzip server). Not a test: it prints figures.
 *
 * Prints per route and preset the medians over N runs (default 3) of the four category scores,
 * LCP, TBT, CLS and transferred bytes, then which targets are missed (100 accessibility, best
 * practices and SEO; performance ≥ 98 desktop, ≥ 95 mobile). Lighthouse's own throttling is used
 * (simulated: mobile = Moto G Power on slow 4G, 4× CPU slowdown; desktop = 10 Mbps, no CPU slowdown).
 */
import {existsSync} from 'node:fs';
import {cpus, loadavg} from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';

import {docRoutes} from '../tests/support/docs';
import {argValue, median} from './cli';
import {ROOT, serveBuild, serveWithNode} from './serve-build';

const BUILD_DIR = path.join(ROOT, 'build');
const CHROMIUM = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGETS: Record<Preset, Record<(typeof CATEGORIES)[number], number>> = {
  desktop: {performance: 98, accessibility: 100, 'best-practices': 100, seo: 100},
  mobile: {performance: 95, accessibility: 100, 'best-practices': 100, seo: 100},
};

type Preset = 'mobile' | 'desktop';
type Sample = {
  scores: Record<(typeof CATEGORIES)[number], number>;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  /** Transferred (compressed) bytes of the route's scripts and of its HTML, from Lighthouse's resource summary. */
  jsBytes: number;
  htmlBytes: number;
  /** Elements in the page once loaded (Lighthouse's dom-size). */
  elements: number;
  failing: string[];
};

type Lighthouse = (typeof import('lighthouse'))['default'];

/** One Lighthouse run of a URL with a preset's default (simulated) throttling. */
async function measure(lighthouse: Lighthouse, url: string, port: number, preset: Preset): Promise<Sample> {
  const {default: desktopConfig} = await import('lighthouse/core/config/desktop-config.js');
  const result = await lighthouse(
    url,
    {port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES]},
    preset === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const {lhr} = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
  ) as Sample['scores'];
  // Audits that cost points in a category other than performance (whose metrics are printed anyway).
  const failing = CATEGORIES.filter((id) => id !== 'performance').flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${id}: ${ref.id}`),
  );
  const summary = ((lhr.audits['resource-summary']?.details as {items?: {resourceType: string; transferSize: number}[]})
    ?.items ?? []) as {resourceType: string; transferSize: number}[];
  const transferred = (type: string) => summary.find((item) => item.resourceType === type)?.transferSize ?? NaN;
  return {
    scores,
    jsBytes: transferred('script'),
    htmlBytes: transferred('document'),
    elements: numeric('dom-size'),
    fcp: numeric('first-contentful-paint'),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    bytes: numeric('total-byte-weight'),
    failing,
  };
}

function launchChrome(): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({chromePath: existsSync(CHROMIUM) ? CHROMIUM : undefined, chromeFlags: CHROME_FLAGS});
}

const spread = (values: number[]) =>
  `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;

/** `--compare <buildA> <buildB>`: alternating A/B runs per route. */
async function compare(dirA: string, dirB: string, lighthouse: Lighthouse): Promise<void> {
  const sides = [dirA, dirB].map((dir) => path.resolve(dir));
  for (const dir of sides)
    if (!existsSync(path.join(dir, 'index.html'))) throw new Error(`${dir} is not a build (no index.html)`);
  const runs = Number(argValue('--runs') ?? 5);
  const routes = argValue('--routes')?.split(',') ?? docRoutes(sides[0]);
  const presets = (argValue('--presets')?.split(',') ?? ['mobile']) as Preset[];
  // One kind of server for both sides (nginx serves only the repository's own build/).
  const servers = await Promise.all(sides.map((dir) => serveWithNode(dir)));
  const chrome = await launchChrome();
  console.log(
    `A = ${sides[0]}\nB = ${sides[1]}\n${servers[0]!.how}; ${runs} run(s) per side, route and preset, alternating A, B; ${cpus().length} CPUs, load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  const rows: {route: string; preset: Preset; a: Sample[]; b: Sample[]}[] = [];
  try {
    for (const preset of presets) {
      for (const route of routes) {
        const row = {route, preset, a: [] as Sample[], b: [] as Sample[]};
        for (let run = 0; run < runs; run += 1) {
          row.a.push(await measure(lighthouse, `${servers[0]!.origin}${route}`, chrome.port, preset));
          row.b.push(await measure(lighthouse, `${servers[1]!.origin}${route}`, chrome.port, preset));
        }
        rows.push(row);
        const perf = (samples: Sample[]) => samples.map((sample) => sample.scores.performance).join('/');
        process.stderr.write(`  ${preset} ${route}: perf A ${perf(row.a)}, B ${perf(row.b)}\n`);
      }
    }
  } finally {
    await chrome.kill();
    await Promise.all(servers.map((served) => served.close()));
  }
  console.log('');
  console.log('Medians (min–max) over the runs; Δ = median B − median A.');
  console.log(
    '| Preset | Route | Perf A | Perf B | Δ perf | TBT A (ms) | TBT B (ms) | Δ TBT | FCP A / B (s) | LCP A / B (s) | CLS A / B |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const {route, preset, a, b} of rows) {
    const perf = (samples: Sample[]) => samples.map((sample) => sample.scores.performance);
    const tbt = (samples: Sample[]) => samples.map((sample) => sample.tbt);
    const seconds = (samples: Sample[], metric: 'fcp' | 'lcp') =>
      (median(samples.map((sample) => sample[metric])) / 1000).toFixed(2);
    const cls = (samples: Sample[]) => median(samples.map((sample) => sample.cls)).toFixed(3);
    console.log(
      `| ${preset} | ${route} | ${spread(perf(a))} | ${spread(perf(b))} | ${(median(perf(b)) - median(perf(a))).toFixed(1)} | ` +
        `${spread(tbt(a))} | ${spread(tbt(b))} | ${(median(tbt(b)) - median(tbt(a))).toFixed(0)} | ${seconds(a, 'fcp')} / ${seconds(b, 'fcp')} | ${seconds(a, 'lcp')} / ${seconds(b, 'lcp')} | ${cls(a)} / ${cls(b)} |`,
    );
  }
  // A page's own cost beside the site's floor: its TBT as a multiple of `/`'s in the same run, and what it ships.
  console.log('');
  console.log('TBT ÷ TBT of `/` (medians); transferred JS and HTML (KiB, as served); elements once loaded (dom-size).');
  console.log('| Preset | Route | TBT ratio A | TBT ratio B | JS A / B | HTML A / B | Elements A / B |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const {route, preset, a, b} of rows) {
    const home = rows.find((row) => row.preset === preset && row.route === '/');
    const ratio = (samples: Sample[], homeSamples?: Sample[]) =>
      homeSamples
        ? (
            median(samples.map((sample) => sample.tbt)) / Math.max(1, median(homeSamples.map((sample) => sample.tbt)))
          ).toFixed(2)
        : 'n/a';
    const kib = (samples: Sample[], key: 'jsBytes' | 'htmlBytes') =>
      (median(samples.map((sample) => sample[key])) / 1024).toFixed(1);
    const elements = (samples: Sample[]) => median(samples.map((sample) => sample.elements)).toFixed(0);
    console.log(
      `| ${preset} | ${route} | ${ratio(a, home?.a)} | ${ratio(b, home?.b)} | ${kib(a, 'jsBytes')} / ${kib(b, 'jsBytes')} | ` +
        `${kib(a, 'htmlBytes')} / ${kib(b, 'htmlBytes')} | ${elements(a)} / ${elements(b)} |`,
    );
  }
}

async function main(): Promise<void> {
  // Lighthouse is ESM-only: load it dynamically from this CommonJS script.
  const {default: lighthouse} = await import('lighthouse');
  const compareIndex = process.argv.indexOf('--compare');
  if (compareIndex >= 0) {
    const [dirA, dirB] = process.argv.slice(compareIndex + 1, compareIndex + 3);
    if (!dirA || !dirB || dirB.startsWith('--')) throw new Error('usage: --compare <buildA> <buildB>');
    await compare(dirA, dirB, lighthouse);
    return;
  }
  if (!existsSync(path.join(BUILD_DIR, 'index.html'))) throw new Error('No build/: run `npm run build` first.');
  const runs = Number(argValue('--runs') ?? 3);
  const routes = argValue('--routes')?.split(',') ?? docRoutes(BUILD_DIR);
  const presets = (argValue('--presets')?.split(',') ?? ['mobile', 'desktop']) as Preset[];

  const served = await serveBuild(BUILD_DIR);
  const chrome = await launchChrome();
  console.log(
    `Lighthouse on ${served.origin} (${served.how}); ${runs} run(s) per route and preset; ${cpus().length} CPUs, load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  const rows: {route: string; preset: Preset; samples: Sample[]}[] = [];
  try {
    for (const preset of presets) {
      for (const route of routes) {
        const samples: Sample[] = [];
        for (let run = 0; run < runs; run += 1) {
          samples.push(await measure(lighthouse, `${served.origin}${route}`, chrome.port, preset));
        }
        rows.push({route, preset, samples});
        const last = samples.at(-1)!;
        process.stderr.write(
          `  ${preset} ${route}: perf ${samples.map((sample) => sample.scores.performance).join('/')}${last.failing.length ? `; failing ${last.failing.join(', ')}` : ''}\n`,
        );
      }
    }
  } finally {
    await chrome.kill();
    await served.close();
  }

  console.log('');
  console.log(`| Preset | Route | Perf | A11y | Best pr. | SEO | LCP | TBT | CLS | Transferred |`);
  console.log(`| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
  const misses: string[] = [];
  for (const {route, preset, samples} of rows) {
    const score = (id: (typeof CATEGORIES)[number]) => median(samples.map((sample) => sample.scores[id]));
    const values = CATEGORIES.map(score);
    console.log(
      `| ${preset} | ${route} | ${values.join(' | ')} | ${(median(samples.map((sample) => sample.lcp)) / 1000).toFixed(2)} s | ` +
        `${median(samples.map((sample) => sample.tbt)).toFixed(0)} ms | ${median(samples.map((sample) => sample.cls)).toFixed(3)} | ` +
        `${(median(samples.map((sample) => sample.bytes)) / 1024).toFixed(1)} KiB |`,
    );
    for (const id of CATEGORIES) {
      if (score(id) < TARGETS[preset][id]) {
        const failing = [
          ...new Set(samples.flatMap((sample) => sample.failing).filter((entry) => entry.startsWith(`${id}:`))),
        ];
        misses.push(
          `${preset} ${route}: ${id} ${score(id)} < ${TARGETS[preset][id]}${failing.length ? ` (${failing.join(', ')})` : ''}`,
        );
      }
    }
  }
  console.log('');
  console.log(
    misses.length
      ? `Targets missed:\n  ${misses.join('\n  ')}`
      : 'Every target met (100 a11y / best practices / SEO; performance ≥ 98 desktop, ≥ 95 mobile).',
  );
  console.log('');
  console.log(
    `How: Lighthouse ${(await import('lighthouse/package.json', {with: {type: 'json'}})).default.version} in ${path.basename(CHROMIUM)} (${CHROME_FLAGS.join(' ')}),`,
  );
  console.log('its default simulated throttling per preset; medians over the runs; "Transferred" = total-byte-weight');
  console.log('(bytes over the wire, compressed). Scores move with machine load: the machine is shared.');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
