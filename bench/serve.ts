/**
 * `npm run bench:serve [-- --requests 200 --rounds 3 --concurrency 8]`: what a compressed answer
 * costs nginx, with the build's precompressed twins (deploy/nginx.conf as it is) beside the same
 * nginx compressing per request (the same rules with gzip_static/brotli_static off and the levels
 * the site used before: gzip 6, brotli 5). Over loopback, for one page's HTML, the main JS bundle
 * and the search index, each as identity, gzip and br. Prints requests/s and p99 latency per case:
 * medians over the rounds, with their spread. Needs nginx and an existing build/ (`npm run build`).
 * `--compare tcp_nopush`: instead, deploy/nginx.conf as it is (`tcp_nopush off`) beside the same with it on
 * (Debian's default in the http block our files are included in), both with sendfile on.
 */
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {Agent, get} from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {BROTLI_CONF, BUILD_DIR, DEPLOY_CONF, serverBlock, startNginxWith} from '../tests/support/nginx';

const {values} = parseArgs({
  options: {
    requests: {type: 'string', default: '200'},
    rounds: {type: 'string', default: '3'},
    concurrency: {type: 'string', default: '8'},
    compare: {type: 'string', default: 'compression'},
  },
});
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);

const ENCODINGS = ['identity', 'gzip', 'br'] as const;
type Encoding = (typeof ENCODINGS)[number];

type Sample = {rps: number; p99: number; bytes: number};

/** The same rules compressing per request, as before the twins: a copy of the two files, changed. */
function onTheFlyConfs(dir: string): {deployConf: string; brotliConf: string} {
  const change = (file: string, replacements: [RegExp, string][]): string => {
    let text = readFileSync(file, 'utf8');
    for (const [from, to] of replacements) {
      if (!from.test(text))
        throw new Error(`${path.relative(process.cwd(), file)} no longer has ${from}: update bench/serve.ts`);
      text = text.replace(from, to);
    }
    const copy = path.join(dir, path.basename(file));
    writeFileSync(copy, text);
    return copy;
  };
  return {
    deployConf: change(DEPLOY_CONF, [
      [/^gzip_static on;/m, 'gzip_static off;'],
      [/^gzip_comp_level \d+;/m, 'gzip_comp_level 6;'],
    ]),
    brotliConf: change(BROTLI_CONF, [
      [/^brotli_static on;/m, 'brotli_static off;'],
      [/^brotli_comp_level \d+;/m, 'brotli_comp_level 5;'],
    ]),
  };
}

/** deploy/nginx.conf with `tcp_nopush on`, as Debian's http block gives it. */
function withNopush(dir: string): string {
  const text = readFileSync(DEPLOY_CONF, 'utf8');
  if (!/^tcp_nopush off;/m.test(text)) throw new Error('deploy/nginx.conf no longer sets tcp_nopush off');
  const copy = path.join(dir, `nopush-${path.basename(DEPLOY_CONF)}`);
  writeFileSync(copy, text.replace(/^tcp_nopush off;/m, 'tcp_nopush on;'));
  return copy;
}

/** `requests` GETs of `url`, `concurrency` at a time over keep-alive connections. */
async function runCase(
  url: string,
  encoding: Encoding,
  expected: string | undefined,
  requests: number,
): Promise<Sample> {
  const agent = new Agent({keepAlive: true, maxSockets: CONCURRENCY});
  const latencies: number[] = [];
  let issued = 0;
  let bytes = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const started = process.hrtime.bigint();
      get(url, {agent, headers: {'Accept-Encoding': encoding}}, (response) => {
        if (response.statusCode !== 200 || response.headers['content-encoding'] !== expected) {
          reject(
            new Error(
              `${url} (${encoding}): ${response.statusCode}, content-encoding ${response.headers['content-encoding']}`,
            ),
          );
        }
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => {
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          resolve();
        });
      }).on('error', reject);
    });
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({length: CONCURRENCY}, async () => {
      while (issued < requests) {
        issued++;
        await one();
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: requests / seconds,
    p99: latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)]!,
    bytes: bytes / requests,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const spread = (values: number[], digits: number) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function main(): Promise<void> {
  const html = readFileSync(path.join(BUILD_DIR, 'index.html'), 'utf8');
  const mainJs = /src="?(\/assets\/js\/main\.[^"\s>]+\.js)/.exec(html)?.[1];
  const searchIndex = readdirSync(BUILD_DIR).find((name) => /^search-index-[0-9a-f]+\.json$/.test(name));
  if (!mainJs || !searchIndex) throw new Error('build/ has no main bundle or search index: run `npm run build` first.');
  const files: [string, string][] = [
    ['HTML /basics/sdk', '/basics/sdk'],
    ['main JS', mainJs],
    ['search index', `/${searchIndex}`],
  ];

  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-serve-'));
  const nopush = values.compare === 'tcp_nopush';
  if (nopush) files.push(['llms-full.txt', '/llms-full.txt']);
  const other = nopush ? {deployConf: withNopush(dir)} : onTheFlyConfs(dir);
  const nginx = await startNginxWith(2, (ports, brotli) =>
    [
      serverBlock({port: ports[0]!, root: BUILD_DIR, collector: '', brotli}),
      serverBlock({port: ports[1]!, root: BUILD_DIR, collector: '', brotli, ...other}),
    ].join('\n'),
  );
  const configs: [string, string][] = [
    [nopush ? 'tcp_nopush off' : 'precompressed', nginx.urls[0]!],
    [nopush ? 'tcp_nopush on' : 'on the fly', nginx.urls[1]!],
  ];
  const expectedEncoding = (encoding: Encoding) =>
    encoding === 'identity' ? undefined : encoding === 'br' && !nginx.brotli ? 'gzip' : encoding;
  const results = new Map<string, Sample[]>();
  try {
    // Warm-up: every file in every form, so the page cache and nginx's open files are hot.
    for (const [, url] of configs)
      for (const [, urlPath] of files)
        for (const encoding of ENCODINGS) await runCase(`${url}${urlPath}`, encoding, expectedEncoding(encoding), 16);
    for (let round = 1; round <= ROUNDS; round++) {
      // Cases alternate within the round (config by config, encoding by encoding), and each round
      // runs them in the opposite order of the previous one, so drift on the machine hits all alike.
      const cases = files.flatMap(([label, urlPath]) =>
        ENCODINGS.flatMap((encoding) =>
          configs.map(([config, url]) => ({key: `${label}|${encoding}|${config}`, url: `${url}${urlPath}`, encoding})),
        ),
      );
      if (round % 2 === 0) cases.reverse();
      for (const {key, url, encoding} of cases) {
        const sample = await runCase(url, encoding, expectedEncoding(encoding), REQUESTS);
        results.set(key, [...(results.get(key) ?? []), sample]);
      }
      process.stderr.write(`round ${round}/${ROUNDS} done\n`);
    }
  } finally {
    await nginx.stop();
    rmSync(dir, {recursive: true, force: true});
  }

  console.log(
    `nginx over loopback, ${REQUESTS} GETs per case, ${CONCURRENCY} at a time on keep-alive connections (node:http),`,
  );
  console.log(`${ROUNDS} rounds with the cases alternating; medians, spread min–max.`);
  console.log(
    nopush
      ? '"tcp_nopush off": deploy/nginx.conf as it is; "tcp_nopush on": the same with it on (both with sendfile on).'
      : `"precompressed": deploy/nginx.conf (gzip_static, brotli_static${nginx.brotli ? '' : ' — brotli modules missing, br falls back to gzip'}); "on the fly": the same rules with *_static off, gzip 6, brotli 5.`,
  );
  console.log(`cost = identity requests/s ÷ this case's requests/s, same configuration.\n`);
  console.log('| File | Encoding | Config | Bytes | Requests/s | p99 (ms) | Cost vs identity |');
  console.log('| --- | --- | --- | ---: | ---: | ---: | ---: |');
  for (const [label] of files) {
    for (const encoding of ENCODINGS) {
      for (const [config] of configs) {
        const samples = results.get(`${label}|${encoding}|${config}`)!;
        const identity = results.get(`${label}|identity|${config}`)!;
        const rps = samples.map((s) => s.rps);
        const p99 = samples.map((s) => s.p99);
        const cost = median(identity.map((s) => s.rps)) / median(rps);
        console.log(
          `| ${label} | ${encoding} | ${config} | ${Math.round(samples[0]!.bytes).toLocaleString('en')} | ${median(rps).toFixed(0)} (${spread(rps, 0)}) | ${median(p99).toFixed(1)} (${spread(p99, 1)}) | ${cost.toFixed(2)}× |`,
        );
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
