import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {errorRule} from '../../src/constants/behaviour';
import {apiFacts} from './facts';
import {listOperations, renderOpenApi, resolveRef, type OpenApiParameter} from './openapi';

const SOURCE = readFileSync(path.resolve(__dirname, '../../api/openapi.yaml'), 'utf8');

type ErrorResponse = {
  description: string;
  content?: {'application/json'?: {example?: {error?: {code: string; param: string | null; retry: string}}}};
};

// A mock of the contract answers with these examples (a request failing its checks with the 422, else 400).
test('every error example answers as the model says, and names what its own operation answers', () => {
  const document = renderOpenApi(SOURCE, apiFacts());
  const problems: string[] = [];
  for (const {method, path: route, operation} of listOperations(document)) {
    const responses = (operation.responses ?? {}) as Record<string, ErrorResponse | {$ref: string}>;
    const inputs = new Set((operation.parameters ?? []).map((p) => resolveRef<OpenApiParameter>(document, p).name));
    const body = resolveRef(document, operation.requestBody ?? {}) as {content?: Record<string, {schema?: object}>};
    const schema = resolveRef<{properties?: object}>(document, Object.values(body.content ?? {})[0]?.schema ?? {});
    for (const property of Object.keys(schema.properties ?? {})) inputs.add(property);
    for (const [status, value] of Object.entries(responses)) {
      const response = resolveRef<ErrorResponse>(document, value);
      const error = response.content?.['application/json']?.example?.error;
      if (!error || route === '/oauth/token') continue;
      const where = `${method} ${route} ${status}`;
      const rule = errorRule(error.code);
      // One server-error example stands for 500, 502 and 503.
      const statusDiffers = Number(status) < 500 && String(rule.status) !== status;
      if (statusDiffers || rule.retry !== error.retry)
        problems.push(`${where}: ${error.code} is not as the model says`);
      if (!response.description.includes(`\`${error.code}\``)) problems.push(`${where}: ${error.code} not described`);
      if (status === '400' && !inputs.has(error.param ?? '')) {
        problems.push(`${where}: param ${error.param} is not one of its inputs`);
      }
    }
  }
  expect(problems).toEqual([]);
  const unauthorized = resolveRef<ErrorResponse>(document, {$ref: '#/components/responses/Unauthorized'});
  expect(
    unauthorized.content?.['application/json']?.example?.error?.code,
    'a mock answers a request without a token',
  ).toBe('missing_token');
});
