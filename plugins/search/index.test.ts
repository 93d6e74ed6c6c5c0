import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, test} from '@playwright/test';

import {workerModule} from './index';

test.describe('search plugin', {tag: '@viewport-independent'}, () => {
  test('its worker stands in for the file the theme starts, by the path the theme starts it with', () => {
    const original = workerModule();
    expect(existsSync(original)).toBe(true);
    // A new theme layout must fail here, not silently run the theme's own worker on the split index.
    const starter = readFileSync(path.join(path.dirname(original), 'searchByWorker.js'), 'utf8');
    expect(starter).toContain('new Worker(new URL("./worker.js", import.meta.url))');
  });
});
