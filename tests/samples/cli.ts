// `npm run test:samples [-- <page file>…] [playwright options]`: the doc tests, for every page or the pages named.
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {PAGES_ENV, ROOT, selectedPages} from './blocks';

const args = process.argv.slice(2);
const pages = args.filter((arg) => /\.mdx?$/.test(arg));
const options = args.filter((arg) => !pages.includes(arg));
const env = {...process.env, DOCS_WEB_SERVER: 'off', [PAGES_ENV]: pages.join(',')};
try {
  selectedPages(env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
// Named pages: their checks only (the sandbox's and the SDK's own tests are not page checks); the
// Postman runs belong to the page that renders the Postman components.
const files =
  pages.length === 0
    ? []
    : [
        'tests/samples/samples.spec.ts',
        ...(selectedPages(env).some((file) => /<Postman\w*/.test(readFileSync(file, 'utf8')))
          ? ['tests/samples/postman.spec.ts']
          : []),
      ];
if (pages.length > 0)
  console.log(`Doc tests for ${pages.map((page) => path.relative(ROOT, path.resolve(page))).join(', ')}`);
const result = spawnSync('npx', ['playwright', 'test', '--project=docs', ...files, ...options], {
  cwd: ROOT,
  env,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
