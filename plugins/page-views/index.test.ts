import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import {test, expect} from '@playwright/test';
import type {LoadContext, Plugin} from '@docusaurus/types';

import {compileScript, type CompiledScript} from './build-script';
import pluginPageViews, {DEFAULT_OPTIONS, PLUGIN_NAME, isSwitchedOff, scriptTag, type PluginOptions} from './index';

const context = {baseUrl: '/docs/', siteConfig: {url: 'https://docs.example.com'}} as unknown as LoadContext;
const options: PluginOptions = {...DEFAULT_OPTIONS};

/** The plugin as its constructor makes it with NODE_ENV and DOCS_ANALYTICS set as given. */
function pluginIn(env: {NODE_ENV?: string; DOCS_ANALYTICS?: string}, pluginOptions = options) {
  const saved = {NODE_ENV: process.env.NODE_ENV, DOCS_ANALYTICS: process.env.DOCS_ANALYTICS};
  const set = (name: string, value: string | undefined) =>
    value === undefined ? delete process.env[name] : (process.env[name] = value);
  set('NODE_ENV', env.NODE_ENV);
  set('DOCS_ANALYTICS', env.DOCS_ANALYTICS);
  try {
    return pluginPageViews(context, pluginOptions);
  } finally {
    set('NODE_ENV', saved.NODE_ENV);
    set('DOCS_ANALYTICS', saved.DOCS_ANALYTICS);
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

    const outDir = await mkdtemp(path.join(tmpdir(), 'page-views-'));
    try {
      await plugin.postBuild!({outDir, content} as never);
      expect(await readFile(path.join(outDir, 'js', 'page-views.js'), 'utf8')).toBe(content.code);
    } finally {
      await rm(outDir, {recursive: true, force: true});
    }

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
