// Runs this folder's Node tests alone, without the web server of the root config:
// npx playwright test -c plugins/docs-urls/playwright.config.ts
import {defineConfig} from '@playwright/test';

export default defineConfig({testDir: '.', testMatch: '**/*.test.ts', reporter: 'list'});
