import {existsSync} from 'node:fs';
import {defineConfig, devices} from '@playwright/test';

// Playwright cannot download its browsers on CI: use Debian's Chromium when it is there
// (or the one PLAYWRIGHT_CHROMIUM_PATH names); elsewhere Playwright's own browser is used.
const systemChromium = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium';
const executablePath = existsSync(systemChromium) ? systemChromium : undefined;

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

export default defineConfig({
  testDir: './tests',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  timeout: 30_000,
  expect: {timeout: 7_000},
  reporter: [['list'], ['html', {open: 'never'}]],
  use: {
    baseURL,
    launchOptions,
    trace: 'retain-on-failure',
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
    {
      name: 'desktop',
      use: {...devices['Desktop Chrome'], launchOptions},
      testIgnore: ['**/*.mobile.spec.ts', 'samples/**'],
      grepInvert: /@phone-only/,
    },
    {
      name: 'mobile',
      use: {...devices['Pixel 7'], launchOptions},
      testIgnore: ['samples/**'],
      grepInvert: /@desktop-only|@viewport-independent/,
    },
    // Node-only unit tests that live beside the local plugins (no browser is started for them).
    {name: 'plugins', testDir: './plugins', testMatch: ['**/*.spec.ts', '**/*.test.ts']},
  ],
  // One production build serves the whole run (`npm test` builds it first).
  webServer: {
    command: `npx docusaurus serve --host 127.0.0.1 --port ${port} --no-open`,
    url: baseURL,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
