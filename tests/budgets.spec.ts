// Byte budgets (tests/budgets.json): every route's JS and CSS, the search index and the analytics script, gzipped at
// level 9, over build/ (build first). Sizes are attached to each test as annotations.
import {existsSync} from 'node:fs';
import path from 'node:path';
import {expect, test} from '@playwright/test';

import {docRoutes} from './support/docs';
import {ANALYTICS_SCRIPT, BUILD_DIR, gzipSize, kib, loadBudgets, routeAssets, searchIndexFiles} from './support/bytes';

const budgets = loadBudgets();

test.describe('byte budgets, gzip (tests/budgets.json)', {tag: '@viewport-independent'}, () => {
  for (const route of docRoutes()) {
    test(`${route}: its JS ≤ ${kib(budgets.routeJs)} and its CSS ≤ ${kib(budgets.routeCss)}`, () => {
      const assets = routeAssets(route);
      for (const {url, raw, gzip} of [...assets.js, ...assets.css])
        test.info().annotations.push({type: 'size', description: `${url}: ${raw} B raw, ${gzip} B gzip`});
      expect(assets.js.length, 'the page loads JS').toBeGreaterThan(0);
      expect(assets.css.length, 'the page loads CSS').toBeGreaterThan(0);
      expect(assets.jsGzip, `JS of ${route}, gzip bytes`).toBeLessThanOrEqual(budgets.routeJs);
      expect(assets.cssGzip, `CSS of ${route}, gzip bytes`).toBeLessThanOrEqual(budgets.routeCss);
    });
  }

  test(`the search index ≤ ${kib(budgets.searchIndexPerPage)} per page of the sitemap`, () => {
    const pages = docRoutes().length;
    const budget = pages * budgets.searchIndexPerPage;
    const files = searchIndexFiles();
    expect(files.length, 'docusaurus build writes a search index').toBeGreaterThan(0);
    const total = files.reduce((sum, file) => sum + gzipSize(file), 0);
    test.info().annotations.push({
      type: 'size',
      description: `${files.map((file) => path.basename(file)).join(', ')}: ${total} B gzip for ${pages} pages`,
    });
    expect(total, `search index, gzip bytes (budget ${budget} B for ${pages} pages)`).toBeLessThanOrEqual(budget);
  });

  test(`the analytics script ≤ ${kib(budgets.analyticsScript)}`, () => {
    const file = path.join(BUILD_DIR, ANALYTICS_SCRIPT);
    expect(existsSync(file), `${ANALYTICS_SCRIPT} is in the build`).toBe(true);
    const gzip = gzipSize(file);
    test.info().annotations.push({type: 'size', description: `${ANALYTICS_SCRIPT}: ${gzip} B gzip`});
    expect(gzip, 'analytics script, gzip bytes').toBeLessThanOrEqual(budgets.analyticsScript);
  });
});
