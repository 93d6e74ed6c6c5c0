import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';
import {parse} from 'yaml';

import {ARTIFACTS, ENVIRONMENTS, POSTMAN} from '../../src/constants/api';
import {BRAND} from '../../src/constants/site';
import {vsDarkAccessible} from '../../src/code-theme/vsDarkAccessible';
import {generateArtifacts, OPENAPI_PATH} from '../../lib/contract/artifacts';
import {apiFacts, brandSlug, postmanNames} from '../../lib/contract/facts';
import {fillPlaceholders} from '../../lib/contract/openapi';
import {DEFAULT_OPTIONS, validateOptions, type Options, type PluginOptions} from './options';
import type {PostmanCollection, PostmanEnvironment} from '../../lib/contract/postman';

const SOURCE = readFileSync(path.resolve(__dirname, '../../api/openapi.yaml'), 'utf8');

const normalize = normalizePluginOptions as unknown as OptionValidationContext<Options, PluginOptions>['validate'];
const validate = (options: Options) => validateOptions({validate: normalize, options});

const highlight = {languages: ['json'], theme: vsDarkAccessible};

test('api-reference options: default to api/openapi.yaml and the BRAND constant, accept a brand override, reject unknown or empty values, and require the highlighting options (the blocks in its data are highlighted)', () => {
  expect(validate({highlight})).toEqual({id: 'default', ...DEFAULT_OPTIONS, highlight});
  expect(validate({highlight, brand: 'Other Co'}).brand).toBe('Other Co');
  for (const wrong of [{brand: ''}, {source: 42}, {colour: 'red'}])
    expect(() => validate({highlight, ...wrong} as Options), JSON.stringify(wrong)).toThrow();
  expect(() => validate({} as Options)).toThrow(/highlight/);
  expect(() => validate({highlight: {...highlight, languages: []}})).toThrow(/languages/);
});

test.describe('api-reference placeholders', () => {
  test('the source spells out neither the brand nor the hosts; a whole-value placeholder keeps the constant type; unknown placeholders fail', () => {
    expect(SOURCE).not.toContain(BRAND);
    for (const environment of Object.values(ENVIRONMENTS)) {
      expect(SOURCE).not.toContain(new URL(environment.apiBase).host);
      expect(SOURCE).not.toContain(new URL(environment.widgetOrigin).host);
    }
    const facts = apiFacts();
    expect(fillPlaceholders('${LIMITS.pageSizeMax}', facts)).toBe(100);
    expect(fillPlaceholders('${BRAND} API', facts)).toBe(`${BRAND} API`);
    expect(() => fillPlaceholders('${LIMITS.nope}', facts)).toThrow(/Unknown placeholder/);
  });
});

test.describe('no drift: names derive from the BRAND constant', () => {
  test('the real brand gives POSTMAN and ARTIFACTS exactly', () => {
    expect(postmanNames(apiFacts())).toEqual({
      collectionName: POSTMAN.collectionName,
      environmentNames: {sandbox: POSTMAN.sandboxEnvironmentName, live: POSTMAN.liveEnvironmentName},
      paths: {
        collection: ARTIFACTS.postmanCollection,
        environments: {sandbox: ARTIFACTS.postmanSandboxEnvironment, live: ARTIFACTS.postmanLiveEnvironment},
      },
    });
    expect(ARTIFACTS.postmanCollection).toBe('/postman/acme-connect-api-v1.postman_collection.json');
  });

  test('another brand changes the OpenAPI title, the collection and environment names and the file names', async () => {
    const brand = 'Globex Mobile';
    const artifacts = await generateArtifacts(SOURCE, apiFacts(brand));
    const document = parse(artifacts.get(OPENAPI_PATH)!) as {info: {title: string; description: string}};
    expect(document.info.title).toBe('Globex Mobile API');
    expect(document.info.description).toContain('Globex Mobile');
    expect(artifacts.get(OPENAPI_PATH)).not.toContain(BRAND);

    const slug = brandSlug(brand);
    expect(slug).toBe('globex-mobile');
    const collectionPath = `/postman/${slug}-api-v1.postman_collection.json`;
    const environmentPath = (name: string) => `/postman/${slug}-${name}.postman_environment.json`;
    const paths = [OPENAPI_PATH, collectionPath, environmentPath('live'), environmentPath('sandbox')];
    expect([...artifacts.keys()].sort()).toEqual(paths.sort());
    const collection = JSON.parse(artifacts.get(collectionPath)!) as PostmanCollection;
    expect(collection.info.name).toBe('Globex Mobile API v1');
    const sandbox = JSON.parse(artifacts.get(environmentPath('sandbox'))!) as PostmanEnvironment;
    expect(sandbox.name).toBe('Globex Mobile – Sandbox');
    expect(JSON.stringify(collection)).not.toContain(BRAND);
  });
});
