import {test, expect} from '@playwright/test';
import type {Root, Table} from 'mdast';

import tableNamesPlugin, {tableNames} from './table-names';

async function parse(markdown: string): Promise<Root> {
  const [{unified}, {default: remarkParse}, {default: remarkGfm}] = await Promise.all([
    import('unified'),
    import('remark-parse'),
    import('remark-gfm'),
  ]);
  const processor = unified().use(remarkParse).use(remarkGfm);
  return processor.run(processor.parse(markdown)) as Promise<Root>;
}

const table = (...headers: string[]) =>
  `| ${headers.join(' | ')} |\n|${headers.map(() => '---').join('|')}|\n| ${headers.map(() => 'x').join(' | ')} |\n`;

test.describe('table-names remark plugin', () => {
  test('names each table after its section, adding the columns where a section has several, as its aria-label', async () => {
    const root = await parse(
      [
        table('Key', 'Value'),
        '## Request a `token`',
        table('Field', 'Type'),
        '### Token response',
        table('Field', 'Type'),
        '## Errors',
        table('error', 'HTTP'),
        table('HTTP', 'Code'),
        '## Twins',
        table('A', 'B'),
        table('A', 'B'),
      ].join('\n'),
    );
    const names = [
      'Table: Key, Value',
      'Request a token',
      'Token response',
      'Errors (error, HTTP)',
      'Errors (HTTP, Code)',
      'Twins (A, B) 1',
      'Twins (A, B) 2',
    ];
    expect(tableNames(root)).toEqual(names);
    tableNamesPlugin()(root);
    const tables = root.children.filter((child): child is Table => child.type === 'table');
    expect(tables.map((node) => node.data?.hProperties)).toEqual(names.map((ariaLabel) => ({ariaLabel})));
  });
});
