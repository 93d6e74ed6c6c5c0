import path from 'node:path';

import {defineConfig} from '@playwright/test';

// `npm run test:samples`: the doc tests, the sandbox and the SDK stand-in. Node only: no browser, no build.
export default defineConfig({
  testDir: path.resolve(__dirname, '..', '..'),
  testMatch: ['tests/samples/*.spec.ts', 'sandbox/*.test.ts', 'sdk/*.test.ts'],
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
});
