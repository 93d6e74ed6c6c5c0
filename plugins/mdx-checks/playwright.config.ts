// Runs this folder's Node tests alone, without the web server of the root config:
// npx playwright test -c plugins/mdx-checks/playwright.config.ts
import {defineConfig} from '@playwright/test';

export default defineConfig({testDir: '.', testMatch: '**/*.test.ts', reporter: 'list', outputDir: '../../test-results/mdx-checks'});
