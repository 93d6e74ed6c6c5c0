// The SDK's own tests (Node only, no browser, no web server): `npx playwright test -c sdk`.
import {defineConfig} from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.test.ts',
  retries: 0,
  timeout: 30_000,
  reporter: 'list',
});
