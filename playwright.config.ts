import {existsSync} from 'node:fs';
import {availableParallelism} from 'node:os';
import {defineConfig, devices} from '@playwright/test';

// Playwright cannot download its browsers on CI: use Debian's Chromium when it is there (or the one
// PLAYWRIGHT_CHROMIUM_PATH names); elsewhere Playwright's own browser is used. Its headless shell first, which is what
// Playwright itself runs headless: the fresh context and cold page load every test pays cost less than with the full
// browser (BENCHMARKS.md, "Chromium's headless shell"). `--headed` needs the full one, /usr/bin/chromium.
const chosenChromium = process.env.PLAYWRIGHT_CHROMIUM_PATH;
if (chosenChromium !== undefined && !existsSync(chosenChromium)) {
  throw new Error(`PLAYWRIGHT_CHROMIUM_PATH is ${chosenChromium}, which does not exist.`);
}
const executablePath =
  chosenChromium ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file));

export const port = Number(process.env.DOCS_PORT ?? 3000);
export const baseURL = `http://127.0.0.1:${port}`;

export const launchOptions = {
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

const WRITER_CHANGE = '**/writer-change.spec.ts';
// Specs that read build/ (or crawl the served build) or spawn processes, and open no page: they run in the
// 'build' project, with no browser, instead of the desktop one.
const BUILD_SPECS = [
  'api-samples',
  'budgets',
  'code-highlight-build',
  'html-valid',
  'links',
  'llms-txt',
  'mcp',
  'placeholders',
  'precompress',
  'rule-sentences',
  'static-hosts',
  'upgrade-guard',
].map((name) => `**/${name}.spec.ts`);

// `npm run test:unit` and `npm run test:samples` need no build: they switch the web server off.
const withWebServer = process.env.DOCS_WEB_SERVER !== 'off';

export default defineConfig({
  testDir: '.',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Playwright's default is half the cores: one worker on the 2-core CI machine, whether or not CI is set.
  // Two keep both cores busy there; the tests wait for states, never for time, so load only slows them.
  workers: Math.max(2, Math.floor(availableParallelism() / 2)),
  // Bounds a hang, not a speed: in CI two workers, the server and Chromium share 2 cores, and a test of several
  // fresh page loads takes there far longer than on a quiet machine.
  timeout: 60_000,
  expect: {timeout: 7_000},
  reporter: [['list'], ['html', {open: 'never'}]],
  use: {
    baseURL,
    launchOptions,
    // No trace unless asked for (`--trace retain-on-failure` reruns a failing test with one): recording every test's
    // trace made every browser test slower (BENCHMARKS.md, "Suite time"), and CI keeps only the printed output.
    trace: 'off',
  },
  // One spec per behaviour, run on a desktop and on a phone. A test that does not belong on both
  // carries a tag, with its reason beside it:
  //   @desktop-only          a desktop behaviour (hardware-keyboard shortcuts, hover, the desktop
  //                          navbar, sidebar or TOC);
  //   @phone-only            a phone behaviour (touch, a layout only a phone's width gives);
  //   @viewport-independent  nothing a viewport could change (no browser, only what the server sends,
  //                          logic that is the same at any width): run once, on the desktop.
  // *.mobile.spec.ts files hold phone-only behaviours (the mobile menu…) and run on the phone only.
  projects: [
    // Playwright hands out tests in the order of this list. The doc tests run a file at a time, and their longest files
    // take minutes: started first, the short tests fill in around them; started last, a worker would wait idle for one.
    // The doc tests (every page's samples against the local sandbox), the sandbox's and the SDK's own tests: no build.
    {
      name: 'docs',
      testMatch: ['tests/samples/*.spec.ts', '{sandbox,sdk}/*.test.ts'],
      timeout: 60_000,
      fullyParallel: false,
    },
    // Checks of the build (`npm test` builds first) as plain Node: no browser.
    {name: 'build', testDir: './tests', testMatch: BUILD_SPECS},
    {
      name: 'desktop',
      testDir: './tests',
      testMatch: '**/*.spec.ts',
      use: {...devices['Desktop Chrome'], launchOptions},
      testIgnore: ['**/*.mobile.spec.ts', 'samples/**', WRITER_CHANGE, ...BUILD_SPECS],
      grepInvert: /@phone-only/,
    },
    {
      name: 'mobile',
      testDir: './tests',
      testMatch: '**/*.spec.ts',
      use: {...devices['Pixel 7'], launchOptions},
      testIgnore: ['samples/**', WRITER_CHANGE, ...BUILD_SPECS],
      grepInvert: /@desktop-only|@viewport-independent/,
    },
    // Node-only unit tests beside the code they test: no browser, no build.
    {name: 'unit', testMatch: ['{lib,plugins}/**/*.test.ts']},
    // A writer's change in a copy of the repository, with its own build and suite: it runs once the others are
    // done, so that the two suites never share the machine's cores.
    {
      name: 'writer-change',
      testDir: './tests',
      testMatch: WRITER_CHANGE,
      dependencies: ['desktop', 'mobile', 'build', 'unit', 'docs'],
    },
  ],
  // One production build serves the browser projects (`npm test` builds it first).
  webServer: withWebServer
    ? {
        command: `npx docusaurus serve --host 127.0.0.1 --port ${port} --no-open`,
        url: baseURL,
        reuseExistingServer: !process.env.CI,
        timeout: 60_000,
      }
    : undefined,
});
