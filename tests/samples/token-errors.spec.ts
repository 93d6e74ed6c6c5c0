/**
 * The token endpoint's errors: the table Authentication shows lists exactly the `error` codes of the
 * contract's OAuthError, with the statuses the contract gives the token operation.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {resolveRef} from '../../lib/contract/openapi';
import {ROOT} from './blocks';
import {findOperation, loadContract} from './contract';
import {ENVIRONMENTS} from '../../src/constants/api';

const PAGE = 'docs/getting-started/authentication.mdx';

test("Authentication's token error table matches the contract's OAuthError codes and the token operation's statuses", async () => {
  const {document} = await loadContract();
  const codes = (document.components.schemas!.OAuthError as {properties: {error: {enum: string[]}}}).properties.error
    .enum;
  const tokenPath = new URL(ENVIRONMENTS.sandbox.tokenUrl).pathname;
  const responses = findOperation(document, 'POST', tokenPath)!.operation.responses as Record<string, {$ref: string}>;
  const errorStatuses = Object.keys(responses)
    .filter((status) => Number(status) >= 400)
    .filter((status) =>
      resolveRef<{content?: Record<string, {schema?: {$ref?: string}}>}>(document, responses[status]!).content?.[
        'application/json'
      ]?.schema?.$ref?.endsWith('/OAuthError'),
    );

  const source = readFileSync(path.join(ROOT, PAGE), 'utf8');
  const table = source.slice(source.indexOf('| `error` | HTTP |')).split('\n\n')[0]!;
  const rows = table
    .split('\n')
    .slice(2)
    .map((row) => row.split('|').map((cell) => cell.trim()))
    .map(([, code, status]) => ({code: code!.replace(/`/g, ''), status: status!}));

  expect(rows.map(({code}) => code).sort()).toEqual([...codes].sort());
  expect([...new Set(rows.map(({status}) => status))].sort()).toEqual(errorStatuses.sort());
});
