/**
 * No sample credential in the docs, the constants, the API sources, the SDK, the sandbox or the served OpenAPI and
 * Postman files looks like a real one. A secret-shaped value (after a secret prefix of the API: `cs_`, `at_`, `whsec_`,
 * or `sk_`/`rk_`; after `Bearer `; or as the value of a secret, token or password field) must be a variable, say what
 * it is (`EXAMPLE`, `REPLACE_ME`, `<YOUR_CLIENT_SECRET>` …), or be a short plain word such as `cs_test_local`.
 */
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {SAMPLES} from '../src/constants/api';

const ROOT = path.resolve(__dirname, '..');

/** Sources of sample values, and the files the build serves from them. */
const SCANNED = [
  'docs',
  'src/constants',
  'api',
  'sdk',
  'sandbox',
  'static',
  'README.md',
  'deploy/README.md',
  'build/openapi.yaml',
  'build/postman',
];
const TEXT_FILE = /\.(?:mdx?|tsx?|js|json|ya?ml|txt|http|sh|py)$/;

/** Words that mark a value as made up. */
const PLACEHOLDER_WORDS = /example|replace|your|placeholder|dummy|fake|sample|redacted|not_a_real|xxxx|…|\.\.\./i;

/** Mixed letters and digits, long enough to be a key: what a generated secret looks like. */
function looksGenerated(value: string): boolean {
  if (PLACEHOLDER_WORDS.test(value)) return false;
  const body = value.replace(/^(?:test|live)_/, '');
  if (body.length < 8 || !/\d/.test(body) || !/[A-Za-z]/.test(body)) return false;
  return (/[a-z]/.test(body) && /[A-Z]/.test(body)) || body.length >= 16;
}

const SECRET_SHAPES: RegExp[] = [
  // The API's secret prefixes (domain: `cs_test_…`, `at_test_…`, `whsec_…`) and the common `sk_`/`rk_` keys.
  /\b(?:whsec|(?:cs|at|sk|rk)_(?:test|live))_([A-Za-z0-9_-]+)/g,
  // A literal bearer token (not `$ACCESS_TOKEN`, `${token}`, `{{accessToken}}` or `<token>`).
  /\bBearer\s+([A-Za-z0-9._~+/=-]{8,})/g,
  // A secret, token or password field with a literal value.
  /(?<![A-Za-z])(?:secret|client_?secret|clientSecret|password|api_?key|apiKey|access_?token|accessToken)["']?\s*[:=]\s*["']?([A-Za-z0-9._~+/=-]{8,})/gi,
];

/** `line: value` for each line holding a secret-looking value (one per line, however many shapes it matches). */
function secretLookingValues(text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const hit = SECRET_SHAPES.flatMap((shape) => [...line.matchAll(shape)]).find((match) => looksGenerated(match[1]!));
    return hit ? [`${index + 1}: ${hit[0]}`] : [];
  });
}

function filesUnder(relative: string): string[] {
  const full = path.join(ROOT, relative);
  if (!statSync(full, {throwIfNoEntry: false})?.isDirectory()) return existsSync(full) ? [full] : [];
  return readdirSync(full, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile() && TEXT_FILE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test.describe('placeholders read as placeholders', {tag: '@viewport-independent'}, () => {
  test('no secret-looking sample value in the docs, constants, API sources, SDK, sandbox or served API files', () => {
    expect(
      existsSync(path.join(ROOT, 'build/openapi.yaml')),
      'the served OpenAPI file: run `npm run build:e2e` first',
    ).toBe(true);
    const findings = SCANNED.flatMap(filesUnder).flatMap((file) =>
      secretLookingValues(readFileSync(file, 'utf8')).map((hit) => `${path.relative(ROOT, file)}:${hit}`),
    );
    expect(findings, 'file:line: value').toEqual([]);
  });

  test('the sample credentials of the constants are placeholders of the right shape', () => {
    expect(SAMPLES.clientSecret).toMatch(/^cs_test_/);
    expect(SAMPLES.accessToken).toMatch(/^at_test_/);
    expect(SAMPLES.webhookSecret).toMatch(/^whsec_/);
    for (const value of [SAMPLES.clientSecret, SAMPLES.accessToken, SAMPLES.webhookSecret])
      expect(value).toMatch(PLACEHOLDER_WORDS);
  });

  test('the detector: generated-looking values are caught, placeholders and variables are not', () => {
    const caught = [
      'secret: whsec_5Jf8Qv2LkP9xR3mT',
      'client_secret: cs_test_4fKx9Vb2Qm',
      '"access_token": "at_test_eyJraWQiOiJzYW5kYm94LTEifQ"',
      'Authorization: Bearer 9f8a7b6c5d4e3f2a1b0c9d8e',
      "apiKey = 'sk_live_51HxYzAbCdEfGh'",
      'password: "hunter2hunter2Xy"',
    ];
    for (const line of caught) expect(secretLookingValues(line), line).not.toEqual([]);
    const passed = [
      'secret: whsec_test_EXAMPLE_ONLY_not_a_real_secret',
      'export ACME_CLIENT_SECRET="<YOUR_CLIENT_SECRET>"',
      'clientSecret: cs_test_REPLACE_ME',
      "const credential = {clientId: 'ci_test_local', clientSecret: 'cs_test_local'};",
      '-H "Authorization: Bearer $ACCESS_TOKEN"',
      'Authorization: Bearer {{accessToken}}',
      'Authorization: Bearer <token>',
      'Its `secret` starts with `whsec_` and is shown only once',
      '"next_cursor": "eyJpZCI6Im9yZF8wMUpCN1ozSzlBIn0"',
      'client_id: ci_test_7Hq2LmV9',
    ];
    for (const line of passed) expect(secretLookingValues(line), line).toEqual([]);
  });
});
