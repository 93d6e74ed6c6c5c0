/**
 * `npm run bench:main-thread -- --builds <A>,<B>[,…] [--routes /,/basics/sdk] [--runs 7]`: the main thread's CPU
 * time while a page loads, per build and route, loads alternating between the builds. Not a test: it prints figures.
 *
 * Lighthouse's simulated TBT multiplies the wall time of each task, so on a shared machine it carries every other
 * job's load. This reads each task's thread time (a Chromium trace's `tdur`: time the thread ran, not time it waited),
 * unthrottled, on a phone viewport, from navigation to 3 s after `load`, and prints per build and route the medians
 * (min–max) of: all tasks; style, layout and paint; and a blocking-time estimate at Lighthouse's mobile 4× CPU,
 * the sum over tasks of (4 × thread time − 50 ms) where positive.
 */
import {chromium, type Browser} from '@playwright/test';
import {cpus, loadavg} from 'node:os';

import {argValue, median} from './cli';
import {serveWithNode} from './serve-build';

const RENDERING = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize']);
const MOBILE_CPU_SLOWDOWN = 4;
const LONG_TASK_MS = 50;

type TraceEvent = {name: string; ph: string; pid: number; tid: number; tdur?: number; args?: {name?: string}};
type Sample = {cpu: number; rendering: number; blocking: number};

async function measure(browser: Browser, url: string): Promise<Sample> {
  const context = await browser.newContext({
    viewport: {width: 412, height: 823},
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    await browser.startTracing(page, {categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline']});
    await page.goto(url, {waitUntil: 'load'});
    await page.waitForTimeout(3000); // what the page does after load (hydration, prefetches) is counted too
    const {traceEvents} = JSON.parse((await browser.stopTracing()).toString()) as {traceEvents: TraceEvent[]};
    // The renderer that parsed the page; its main thread.
    const renderer = new Set(traceEvents.filter((event) => event.name === 'ParseHTML').map((event) => event.pid));
    const main = traceEvents.find(
      (event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain' && renderer.has(event.pid),
    );
    if (!main) throw new Error(`${url}: no renderer main thread in the trace`);
    const events = traceEvents.filter(
      (event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.tdur !== undefined,
    );
    const ms = (event: TraceEvent) => event.tdur! / 1000;
    const tasks = events.filter((event) => event.name === 'RunTask');
    return {
      cpu: tasks.reduce((sum, task) => sum + ms(task), 0),
      rendering: events.filter((event) => RENDERING.has(event.name)).reduce((sum, event) => sum + ms(event), 0),
      blocking: tasks.reduce((sum, task) => sum + Math.max(0, MOBILE_CPU_SLOWDOWN * ms(task) - LONG_TASK_MS), 0),
    };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const builds = argValue('--builds')?.split(',');
  if (!builds?.length) throw new Error('usage: --builds <A>,<B>[,…] [--routes /,/x] [--runs N]');
  const routes = (argValue('--routes') ?? '/,/getting-started/main-concepts').split(',');
  const runs = Number(argValue('--runs') ?? 7);
  const servers = await Promise.all(builds.map((dir) => serveWithNode(dir)));
  const browser = await chromium.launch({
    executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  console.log(
    `${runs} load(s) per build and route, alternating builds; ${servers[0]!.how}; ${cpus().length} CPUs, load ` +
      loadavg()
        .map((value) => value.toFixed(2))
        .join(' '),
  );
  const samples = new Map<string, Sample[]>();
  try {
    for (let run = 0; run < runs; run += 1) {
      for (const route of routes) {
        for (const [index, served] of servers.entries()) {
          const key = `${route}\t${builds[index]}`;
          samples.set(key, [...(samples.get(key) ?? []), await measure(browser, `${served.origin}${route}`)]);
        }
      }
    }
  } finally {
    await browser.close();
    await Promise.all(servers.map((served) => served.close()));
  }
  const spread = (values: number[]) =>
    `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  console.log('\n| Route | Build | Main thread CPU (ms) | Style, layout, paint (ms) | Blocking estimate at 4× (ms) |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [key, values] of samples) {
    const [route, build] = key.split('\t');
    const of = (metric: keyof Sample) => spread(values.map((sample) => sample[metric]));
    console.log(`| ${route} | ${build} | ${of('cpu')} | ${of('rendering')} | ${of('blocking')} |`);
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
