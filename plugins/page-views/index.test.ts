import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import {test, expect} from '@playwright/test';
import type {LoadContext, Plugin} from '@docusaurus/types';

import {compileScript, type CompiledScript} from './build-script';
import pluginPageViews, {
  DEFAULT_OPTIONS,
  OFF_SWITCH_ENV,
  PLUGIN_NAME,
  isSwitchedOff,
  scriptTag,
  type PluginOptions,
} from './index';

const context = {baseUrl: '/docs/', siteConfig: {url: 'https://docs.example.com'}} as unknown as LoadContext;
const options: PluginOptions = {...DEFAULT_OPTIONS};

/** Runs the plugin constructor with NODE_ENV and DOCS_ANALYTICS set as given. */
function withEnv<T>(env: {NODE_ENV?: string; DOCS_ANALYTICS?: string}, run: () => T): T {
  const saved = {NODE_ENV: process.env.NODE_ENV, [OFF_SWITCH_ENV]: process.env[OFF_SWITCH_ENV]};
  const set = (name: string, value: string | undefined) =>
    value === undefined ? delete process.env[name] : (process.env[name] = value);
  set('NODE_ENV', env.NODE_ENV);
  set(OFF_SWITCH_ENV, env.DOCS_ANALYTICS);
  try {
    return run();
  } finally {
    set('NODE_ENV', saved.NODE_ENV);
    set(OFF_SWITCH_ENV, saved[OFF_SWITCH_ENV]);
  }
}

const productionPlugin = () =>
  withEnv({NODE_ENV: 'production'}, () => pluginPageViews(context, options)) as Plugin<CompiledScript>;

test.describe('page-views plugin', () => {
  test('production build: injects one deferred same-origin script under the base URL', async () => {
    const plugin = productionPlugin();
    expect(plugin.name).toBe(PLUGIN_NAME);
    const content = await compileScript();
    const tags = plugin.injectHtmlTags!({content});
    expect(tags).toEqual({
      headTags: [
        {
          tagName: 'script',
          attributes: {
            defer: true,
            src: `/docs/js/page-views.js?v=${content.hash}`,
            'data-api': '/api/event',
            'data-domain': 'docs.example.com',
          },
        },
      ],
    });
    const custom = {
      ...options,
      collectorUrl: 'https://plausible.example.com/api/event',
      domain: 'acme.test',
      allowLocalhost: true,
    };
    expect(scriptTag({baseUrl: '/', siteUrl: 'https://docs.example.com'}, custom, 'h').attributes).toEqual({
      defer: true,
      src: '/js/page-views.js?v=h',
      'data-api': 'https://plausible.example.com/api/event',
      'data-domain': 'acme.test',
      'data-allow-localhost': 'true',
    });
  });

  test('postBuild writes the compiled script to the script path', async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), 'page-views-'));
    try {
      const plugin = productionPlugin();
      const content = await compileScript();
      await plugin.postBuild!({outDir, content} as Parameters<NonNullable<Plugin<CompiledScript>['postBuild']>>[0]);
      expect(await readFile(path.join(outDir, 'js', 'page-views.js'), 'utf8')).toBe(content.code);
    } finally {
      await rm(outDir, {recursive: true, force: true});
    }
  });

  test('switched off (option or DOCS_ANALYTICS=off) or in `docusaurus start`: no plugin, so no script is injected', () => {
    expect(withEnv({NODE_ENV: 'production'}, () => pluginPageViews(context, {...options, enabled: false}))).toBeNull();
    expect(
      withEnv({NODE_ENV: 'production', DOCS_ANALYTICS: 'off'}, () => pluginPageViews(context, options)),
    ).toBeNull();
    expect(withEnv({NODE_ENV: 'development'}, () => pluginPageViews(context, options))).toBeNull();
    expect(withEnv({}, () => pluginPageViews(context, options))).toBeNull();
    expect(isSwitchedOff({enabled: true}, {DOCS_ANALYTICS: 'on'})).toBe(false);
    expect(isSwitchedOff({enabled: true}, {DOCS_ANALYTICS: 'off'})).toBe(true);
  });

  // Its byte budget is checked on the build (tests/budgets.spec.ts).
  test('the compiled script is ES2017 and leaks no globals', async () => {
    const {code} = await compileScript();
    expect(code).not.toMatch(/\?\.|\?\?|\bimport\b|\brequire\(/);
    // Outside a browser (no `document`) it only defines its functions, inside its own scope.
    const sandbox: Record<string, unknown> = {};
    vm.runInNewContext(code, sandbox);
    expect(Object.keys(sandbox)).toEqual([]);
  });
});
