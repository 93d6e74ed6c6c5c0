import {readFile} from 'node:fs/promises';
import path from 'node:path';
import vm from 'node:vm';
import {test, expect} from '@playwright/test';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {LoadContext, OptionValidationContext, Plugin} from '@docusaurus/types';

import {ANALYTICS} from '../../src/constants/site';
import {compileScript, type CompiledScript} from './build-script';
import pluginPageViews, {DEFAULT_OPTIONS, PLUGIN_NAME, isSwitchedOff, scriptTag, type PluginOptions} from './index';
import {validateOptions, type Options} from './options';

const context = {baseUrl: '/docs/', siteConfig: {url: 'https://docs.example.com'}} as unknown as LoadContext;
const options: PluginOptions = {...DEFAULT_OPTIONS};

function pluginIn(env: {NODE_ENV?: string; DOCS_ANALYTICS?: string}, pluginOptions = options) {
  const saved = process.env;
  const {NODE_ENV: _node, DOCS_ANALYTICS: _analytics, ...others} = saved;
  process.env = {...others, ...env};
  try {
    return pluginPageViews(context, pluginOptions);
  } finally {
    process.env = saved;
  }
}

test.describe('page-views plugin', () => {
  // Its byte budget is checked on the build (tests/budgets.spec.ts).
  test('production build: injects one deferred same-origin script under the base URL, written by postBuild, ES2017 and leaking no globals', async () => {
    const plugin = pluginIn({NODE_ENV: 'production'}) as Plugin<CompiledScript>;
    expect(plugin.name).toBe(PLUGIN_NAME);
    const content = await compileScript();
    const src = `/docs/js/page-views.js?v=${content.hash}`;
    const attributes = {defer: true, src, 'data-api': '/api/event', 'data-domain': 'docs.example.com'};
    expect(plugin.injectHtmlTags!({content})).toEqual({headTags: [{tagName: 'script', attributes}]});
    const custom = {collectorUrl: 'https://plausible.example.com/api/event', domain: 'acme.test', allowLocalhost: true};
    const site = {baseUrl: '/', siteUrl: 'https://docs.example.com'};
    expect(scriptTag(site, {...options, ...custom}, 'h').attributes).toEqual({
      defer: true,
      src: '/js/page-views.js?v=h',
      'data-api': 'https://plausible.example.com/api/event',
      'data-domain': 'acme.test',
      'data-allow-localhost': 'true',
    });

    const outDir = test.info().outputPath('build');
    await plugin.postBuild!({outDir, content} as never);
    expect(await readFile(path.join(outDir, 'js', 'page-views.js'), 'utf8')).toBe(content.code);

    expect(content.code, 'ES2017').not.toMatch(/\?\.|\?\?|\bimport\b|\brequire\(/);
    // Outside a browser (no `document`) it only defines its functions, inside its own scope.
    const sandbox: Record<string, unknown> = {};
    vm.runInNewContext(content.code, sandbox);
    expect(Object.keys(sandbox), 'globals').toEqual([]);
  });

  test('switched off (option or DOCS_ANALYTICS=off) or in `docusaurus start`: no plugin, so no script is injected', () => {
    expect(pluginIn({NODE_ENV: 'production'}, {...options, enabled: false})).toBeNull();
    expect(pluginIn({NODE_ENV: 'production', DOCS_ANALYTICS: 'off'})).toBeNull();
    expect(pluginIn({NODE_ENV: 'development'})).toBeNull();
    expect(pluginIn({})).toBeNull();
    expect(isSwitchedOff({enabled: true}, {DOCS_ANALYTICS: 'on'})).toBe(false);
    expect(isSwitchedOff({enabled: true}, {DOCS_ANALYTICS: 'off'})).toBe(true);
  });
});

// Docusaurus passes normalizePluginOptions (which adds `id`) as `validate`, exactly as here.
const normalize = normalizePluginOptions as unknown as OptionValidationContext<Options, PluginOptions>['validate'];

const validate = (options: Options | Record<string, unknown>) =>
  validateOptions({validate: normalize, options: options as Options});

test.describe('page-views options', () => {
  test('fills in the defaults, and accepts the site constants as they are', () => {
    expect(validate({})).toEqual({...DEFAULT_OPTIONS, id: 'default'});
    expect(DEFAULT_OPTIONS).toMatchObject({collectorUrl: '/api/event', enabled: true, allowLocalhost: false});
    expect(validate({...ANALYTICS})).toEqual({...DEFAULT_OPTIONS, ...ANALYTICS, id: 'default'});
    expect(ANALYTICS.domain).toBe('docs.example.com');
  });

  test('accepts a same-origin path or any http(s) collector URL; rejects a relative, protocol-relative or non-http one', () => {
    const urls = ['/api/event', '/stats/e?x=1', 'https://plausible.io/api/event', 'http://localhost:8000/api/event'];
    for (const collectorUrl of urls) expect(validate({collectorUrl}).collectorUrl).toBe(collectorUrl);
    const wrong = [
      'api/event',
      '//evil.example/api/event',
      'ftp://example.com/e',
      'javascript:alert(1)',
      '',
      '/api event',
    ];
    for (const collectorUrl of wrong) expect(() => validate({collectorUrl}), collectorUrl).toThrow(/collectorUrl/);
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
