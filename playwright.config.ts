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
  projects: [
    {name: 'desktop', use: {...devices['Desktop Chrome'], launchOptions}, testIgnore: ['**/*.mobile.spec.ts', 'samples/**']},
    {name: 'mobile', use: {...devices['Pixel 7'], launchOptions}, testMatch: '**/*.mobile.spec.ts'},
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
