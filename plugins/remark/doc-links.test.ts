import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {docLinks} from './doc-links';

test('a doc link resolves in either style, to a page and to a heading or id of it; a broken one says what is missing', () => {
  const docs = test.info().outputPath('docs');
  mkdirSync(path.join(docs, 'basics'), {recursive: true});
  writeFileSync(path.join(docs, 'intro.mdx'), '---\nslug: /\ntitle: Intro\n---\n\n## Ways to integrate\n');
  writeFileSync(
    path.join(docs, 'basics', 'sdk.mdx'),
    '---\ntitle: SDK\n---\n\n## Error handling {#errors}\n\n### Retries & backoff\n\n<a id="pinned"></a>\n\n```md\n## Not a heading\n```\n',
  );
  const from = path.join(docs, 'intro.mdx');
  const {problem} = docLinks(docs);
  for (const url of [
    './basics/sdk.mdx',
    './basics/sdk.mdx#errors',
    '/basics/sdk#retries--backoff',
    '/basics/sdk#pinned',
    '/#ways-to-integrate',
    '#ways-to-integrate',
    '/openapi.yaml',
    '/search',
    'https://example.com/x#y',
    'pathname:///llms.txt',
  ]) {
    expect(problem(url, from), url).toBeUndefined();
  }
  expect(problem('./basics/skd.mdx', from)).toContain('no such file basics/skd.mdx');
  expect(problem('/basics/skd', from)).toContain('no doc page has the URL /basics/skd');
  expect(problem('/basics/sdk#error-handling', from)).toContain('has no heading or id "#error-handling"');
  expect(problem('/basics/sdk#not-a-heading', from)).toContain('#not-a-heading');
  expect(problem('#nowhere', from)).toContain('intro.mdx has no heading or id "#nowhere"');
});
