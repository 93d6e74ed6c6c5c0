import {test, expect} from '@playwright/test';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

import {ANALYTICS} from '../../src/constants/site';
import {DEFAULT_OPTIONS, validateOptions, type Options, type PluginOptions} from './options';

// Docusaurus passes normalizePluginOptions (which adds `id`) as `validate`, exactly as here.
const normalize = normalizePluginOptions as unknown as OptionValidationContext<Options, PluginOptions>['validate'];

function validate(options: Options | Record<string, unknown>) {
  return validateOptions({validate: normalize, options: options as Options});
}

test.describe('page-views options', () => {
  test('fills in the defaults', () => {
    expect(validate({})).toEqual({...DEFAULT_OPTIONS, id: 'default'});
    expect(DEFAULT_OPTIONS).toMatchObject({collectorUrl: '/api/event', enabled: true, allowLocalhost: false});
  });

  test('accepts the site constants as they are', () => {
    expect(validate({...ANALYTICS})).toEqual({...DEFAULT_OPTIONS, ...ANALYTICS, id: 'default'});
    expect(ANALYTICS.domain).toBe('docs.example.com');
  });

  test('accepts a same-origin path or any http(s) collector URL', () => {
    const urls = ['/api/event', '/stats/e?x=1', 'https://plausible.io/api/event', 'http://localhost:8000/api/event'];
    for (const collectorUrl of urls) expect(validate({collectorUrl}).collectorUrl).toBe(collectorUrl);
  });

  test('rejects a relative, protocol-relative or non-http collector URL', () => {
    const urls = [
      'api/event',
      '//evil.example/api/event',
      'ftp://example.com/e',
      'javascript:alert(1)',
      '',
      '/api event',
    ];
    for (const collectorUrl of urls) expect(() => validate({collectorUrl}), collectorUrl).toThrow(/collectorUrl/);
  });

  test('checks the script path, the domain and the flags', () => {
    expect(validate({scriptPath: 'assets/pv.js'}).scriptPath).toBe('assets/pv.js');
    for (const scriptPath of ['/js/page-views.js', '../page-views.js', 'js/../../x.js', 'js/page-views.mjs'])
      expect(() => validate({scriptPath}), scriptPath).toThrow(/scriptPath/);
    expect(validate({domain: 'docs.example.com:8443'}).domain).toBe('docs.example.com:8443');
    for (const domain of ['https://docs.example.com', 'docs.example.com/path', '-x'])
      expect(() => validate({domain}), domain).toThrow(/domain/);
    expect(() => validate({enabled: 'no'})).toThrow(/enabled/);
    expect(() => validate({allowLocalhost: 1})).toThrow(/allowLocalhost/);
    expect(() => validate({trackingId: 'x'})).toThrow(/trackingId/);
  });
});
