/**
 * README's commands work as written: every `npm run` script it names exists, and its single-page doc test
 * (`npm run test:samples -- <page>`) passes for a page with runnable samples and for a page without.
 */
import {execFile, spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';

import {expect, test} from '@playwright/test';

import {listPages, pageBlocks, ROOT} from './blocks';
import {isRun} from './sessions';

const run = promisify(execFile);
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

test('every npm script README names exists in package.json', () => {
  const {scripts} = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  // `npm run x`, and the table's shorthand `bench:a`, `bench:b` after it.
  const named = [...readme.matchAll(/`npm run ([\w:-]+)[^`]*`((?:, `[\w:-]+`)*)/g)].flatMap(([, first, more]) => [
    first!,
    ...[...(more ?? '').matchAll(/`([\w:-]+)`/g)].map(([, name]) => name!),
  ]);
  expect(named.length).toBeGreaterThan(0);
  expect([...new Set(named)].filter((name) => !(name in scripts))).toEqual([]);
});

test("README's single-page doc test passes for a page with runnable samples and for one without", async () => {
  test.setTimeout(600_000);
  const example = /`npm run test:samples -- (docs\/\S+\.mdx?)`/.exec(readme)?.[1];
  expect(example, 'README shows `npm run test:samples -- <page>`').toBeDefined();
  const runs = (file: string) => pageBlocks(file).some(isRun);
  const withoutSamples = listPages().find((file) => !runs(file));
  const pages = [example!, ...(withoutSamples ? [path.relative(ROOT, withoutSamples)] : [])];
  expect(runs(path.join(ROOT, example!)), `${example} has runnable samples`).toBe(true);
  // The two runs are independent: side by side.
  await Promise.all(
    pages.map(async (page) => {
      // Its own results folder: Playwright empties the one it writes to, and the outer run's is in use.
      const output = mkdtempSync(path.join(os.tmpdir(), 'readme-doc-test-'));
      const result = await run('npm', ['run', 'test:samples', '--', page, '--reporter=line', `--output=${output}`], {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: Error & {code?: number; stdout?: string}) => ({status: error.code, stdout: error.stdout ?? ''}));
      rmSync(output, {recursive: true, force: true});
      const status = 'status' in result ? result.status : 0;
      expect(status, `npm run test:samples -- ${page}\n${result.stdout.slice(-3000)}`).toBe(0);
      expect(result.stdout).toContain(`Doc tests for ${page}`);
    }),
  );
});

// bench:mechanisms turns each mechanism off by a text patch: once the code around one moves, the bench stops there.
test("README's bench:mechanisms still finds every mechanism it turns off", async () => {
  const {stdout} = await run('npm', ['run', '--silent', 'bench:mechanisms', '--', '--check'], {cwd: ROOT});
  expect(stdout).toContain('every patch applies');
});

// A warning in README's install step would teach writers to ignore warnings. A dry run resolves the same tree
// from the lock file and prints the same peer-range warnings, without installing (it reads the registry, as npm ci).
test("README's install step, npm ci, prints no warning", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'npm-ci-dry-run-'));
  try {
    for (const file of ['package.json', 'package-lock.json', '.npmrc'])
      writeFileSync(path.join(dir, file), readFileSync(path.join(ROOT, file)));
    const {stdout, stderr} = await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stdout).toMatch(/added \d+ packages/);
    expect(stderr.split('\n').filter((line) => /^npm (warn|error)/i.test(line))).toEqual([]);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

// Docusaurus prints an "Update available … npm i @docusaurus/core@latest" box from a cached check, which README's
// upgrade notes tell writers not to follow: the site's own scripts never show it.
// (`build` takes the same setting; its arguments would go to the precompress step, so `--help` cannot stop it.)
test("README's start and serve scripts print no Docusaurus update box", () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'update-notifier-home-'));
  try {
    // The cache Docusaurus's update-notifier reads: a newer version already found.
    const store = path.join(home, '.config/configstore/update-notifier-@docusaurus');
    mkdirSync(store, {recursive: true});
    writeFileSync(
      path.join(store, 'core.json'),
      JSON.stringify({
        optOut: false,
        lastUpdateCheck: Date.now(),
        update: {latest: '99.0.0', current: '3.7.0', type: 'major', name: '@docusaurus/core'},
      }),
    );
    // The notifier stays quiet on CI by itself; a writer's machine is not CI.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^(CI|CONTINUOUS_INTEGRATION|BUILD_NUMBER|RUN_ID)$/.test(name)),
    );
    for (const script of ['start', 'serve']) {
      const result = spawnSync('npm', ['run', '--silent', script, '--', '--help'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: {...env, HOME: home},
      });
      expect(result.status, `npm run ${script} -- --help\n${result.stderr}`).toBe(0);
      expect(`${result.stdout}${result.stderr}`, `npm run ${script}`).not.toContain('Update available');
    }
  } finally {
    rmSync(home, {recursive: true, force: true});
  }
});

// `--queries` with its file forgotten once ran the whole search bench for minutes, as if no option were given.
test('a bench option given without its value stops the bench at once, naming the option', () => {
  const result = spawnSync('npm', ['run', '--silent', 'bench:search', '--', '--queries'], {
    cwd: ROOT,
    encoding: 'utf8',
    // Without the check the whole bench would run: the test ends well before.
    timeout: 60_000,
  });
  expect(result.status).not.toBe(0);
  expect(result.stderr).toContain('--queries needs a value');
});
