import {defineConfig} from '@playwright/test';

// The sandbox's own Node tests (no browser, no web server).
export default defineConfig({
  testDir: '.',
  testMatch: '*.test.ts',
  timeout: 30_000,
  reporter: 'list',
  outputDir: '../test-results/sandbox',
});
