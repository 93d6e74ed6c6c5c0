import {createHash} from 'node:crypto';
import {mkdtemp, mkdir, rm, writeFile} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {test, expect} from '@playwright/test';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

import {DEFAULT_OPTIONS, validateOptions, type Options, type PluginOptions} from './options';
import {buildPolicy, collectorOrigin, inlineScriptHashes, nginxInclude} from './policy';
import {policyForBuild} from './index';

const normalize = normalizePluginOptions as unknown as OptionValidationContext<Options, PluginOptions>['validate'];
const validate = (options: Options | Record<string, unknown>) => validateOptions({validate: normalize, options: options as Options});
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

test.describe('csp plugin', () => {
  test('options: defaults, and no path outside the build', () => {
    expect(validate({})).toEqual({...DEFAULT_OPTIONS, id: 'default'});
    expect(() => validate({nginxInclude: '../csp.conf'})).toThrow(/nginxInclude/);
    expect(() => validate({nginxInclude: '/etc/csp.conf'})).toThrow(/nginxInclude/);
  });

  test('hashes executable inline scripts only, byte for byte', () => {
    const html = [
      '<script>var a = "<b>";</script>',
      '<script data-rh="true" type="text/javascript">b()</script>',
      '<script type="module">c()</script>',
      '<script src="/x.js"></script>',
      '<script defer="defer" src="/y.js">ignored()</script>',
      '<script type="application/ld+json">{"@type":"x"}</script>',
    ].join('\n');
    expect(inlineScriptHashes(html)).toEqual([sha('var a = "<b>";'), sha('b()'), sha('c()')]);
  });

  test('the policy: self scripts plus hashes, nothing unsafe for scripts, the directives the site needs', () => {
    const policy = buildPolicy({scriptHashes: [sha('b'), sha('a'), sha('a')], collectorUrl: '/api/event'});
    const directives = Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['script-src']).toEqual(["'self'", ...[sha('a'), sha('b')].sort()]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['img-src']).toEqual(["'self'", 'data:']);
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    for (const [name, value] of [['frame-ancestors', "'none'"], ['base-uri', "'self'"], ['form-action', "'self'"], ['object-src', "'none'"]]) {
      expect(directives[name!]).toEqual([value]);
    }
    expect(policy).not.toMatch(/unsafe-eval/);
  });

  test('an absolute collector URL adds its origin to connect-src', () => {
    expect(collectorOrigin('https://plausible.example.com/api/event')).toBe('https://plausible.example.com');
    expect(collectorOrigin('/api/event')).toBeUndefined();
    expect(buildPolicy({scriptHashes: [], collectorUrl: 'https://p.example.com:8443/e'})).toContain("connect-src 'self' https://p.example.com:8443;");
  });

  test('writes an nginx `set` and refuses what nginx would misread', () => {
    expect(nginxInclude("default-src 'self'")).toContain(`set $docs_csp "default-src 'self'";`);
    expect(() => nginxInclude('a "b"')).toThrow();
    expect(() => nginxInclude('a $b')).toThrow();
  });

  test('a build directory: the union of all pages\' hashes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'csp-'));
    try {
      await mkdir(path.join(dir, 'a'));
      await writeFile(path.join(dir, 'index.html'), '<script>one()</script><script>two()</script>');
      await writeFile(path.join(dir, 'a', 'b.html'), '<script>one()</script>');
      const policy = await policyForBuild(dir, {});
      expect(policy).toContain(`script-src 'self' ${[sha('one()'), sha('two()')].sort().join(' ')};`);
    } finally {
      await rm(dir, {recursive: true, force: true});
    }
  });
});
