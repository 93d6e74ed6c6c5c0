import {createHash} from 'node:crypto';
import {mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {test, expect} from '@playwright/test';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

import {DEFAULT_OPTIONS, policyForBuild, validateOptions, type Options, type PluginOptions} from './index';
import {buildPolicy, collectorOrigin, inlineScriptHashes, nginxInclude} from './policy';
import {
  headersFile,
  headersFor,
  IMMUTABLE,
  parseHeadersFile,
  pathPattern,
  SECURITY_HEADERS,
  staticHostRules,
} from './static-hosts';

const normalize = normalizePluginOptions as unknown as OptionValidationContext<Options, PluginOptions>['validate'];
const validate = (options: Options | Record<string, unknown>) =>
  validateOptions({validate: normalize, options: options as Options});
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

test.describe('csp plugin', () => {
  test('options: defaults, and no path outside the build', () => {
    expect(validate({})).toEqual({...DEFAULT_OPTIONS, id: 'default'});
    for (const nginxInclude of ['../csp.conf', '/etc/csp.conf'])
      expect(() => validate({nginxInclude}), nginxInclude).toThrow(/nginxInclude/);
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

  test('the policy: self scripts plus hashes, nothing unsafe for scripts, the directives the site needs; an absolute collector URL adds its origin to connect-src; written as an nginx `set`, refusing what nginx would misread', () => {
    const policy = buildPolicy({scriptHashes: [sha('b'), sha('a'), sha('a')], collectorUrl: '/api/event'});
    const directives = Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives).toMatchObject({
      'script-src': ["'self'", ...[sha('a'), sha('b')].sort()],
      'connect-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'style-src': ["'self'", "'unsafe-inline'"],
      'frame-ancestors': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'object-src': ["'none'"],
    });
    expect(policy).not.toMatch(/unsafe-eval/);
    expect(collectorOrigin('https://plausible.example.com/api/event')).toBe('https://plausible.example.com');
    expect(collectorOrigin('/api/event')).toBeUndefined();
    expect(buildPolicy({scriptHashes: [], collectorUrl: 'https://p.example.com:8443/e'})).toContain(
      "connect-src 'self' https://p.example.com:8443;",
    );
    expect(nginxInclude("default-src 'self'")).toContain(`set $docs_csp "default-src 'self'";`);
    for (const policy of ['a "b"', 'a $b']) expect(() => nginxInclude(policy), policy).toThrow();
  });

  test("a build directory: the union of all pages' hashes", async () => {
    const dir = test.info().outputPath('build');
    await mkdir(path.join(dir, 'a'), {recursive: true});
    await writeFile(path.join(dir, 'index.html'), '<script>one()</script><script>two()</script>');
    await writeFile(path.join(dir, 'a', 'b.html'), '<script>one()</script>');
    const policy = await policyForBuild(dir, {});
    expect(policy).toContain(`script-src 'self' ${[sha('one()'), sha('two()')].sort().join(' ')};`);
  });
});

test.describe('csp plugin: _headers for Netlify and Cloudflare Pages', () => {
  const rules = staticHostRules("default-src 'self'; script-src 'self' 'sha256-abc='");
  const paths = ['/', '/basics/sdk', '/openapi.yaml', '/assets/js/main.1234abcd.js', '/search-index-0a1b2c3d.json'];

  test('security headers with the policy on every path; a year, immutable, on hashed files only', () => {
    for (const urlPath of paths) {
      const headers = headersFor(rules, urlPath);
      expect(headers['content-security-policy'], urlPath).toBe("default-src 'self'; script-src 'self' 'sha256-abc='");
      for (const [name, value] of SECURITY_HEADERS)
        expect(headers[name.toLowerCase()], `${name} on ${urlPath}`).toBe(value);
    }
    expect(headersFor(rules, '/assets/js/main.1234abcd.js')['cache-control']).toBe(IMMUTABLE);
    // Other files keep the host's revalidate-on-every-use default; the search index's name does not follow its content.
    for (const urlPath of ['/', '/basics/sdk', '/search-index-0a1b2c3d.json', '/img/logo.svg']) {
      expect(headersFor(rules, urlPath)['cache-control'], urlPath).toBeUndefined();
    }
  });

  test('no header is set by two rules that match one path, so the hosts never join two values', () => {
    for (const urlPath of [...paths, '/assets/search-index-1.json']) {
      const names = rules
        .filter((rule) => pathPattern(rule.path).test(urlPath))
        .flatMap((rule) => rule.headers.map(([name]) => name.toLowerCase()));
      expect(new Set(names).size, urlPath).toBe(names.length);
    }
  });

  test('written and read back: the file format', () => {
    const text = headersFile(rules);
    expect(text).toMatch(/^# Generated by plugins\/csp.*do not edit/);
    expect(text).toContain(
      "/*\n  Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-abc='\n  Strict-Transport-Security:",
    );
    expect(text).toContain(`/assets/*\n  Cache-Control: ${IMMUTABLE}\n`);
    expect(text).not.toContain('/search-index-');
    expect(parseHeadersFile(text)).toEqual(
      rules.map((rule) => ({path: rule.path, headers: rule.headers.map(([name, value]) => [name, value])})),
    );
    expect(() => headersFile([{path: '/*', headers: [['X-Bad', 'a\nInjected: 1']]}])).toThrow(
      /Cannot write the header/,
    );
    expect(() => parseHeadersFile('  Orphan: 1\n')).toThrow(/line 1/);
  });

  test('path patterns as the hosts read them: splats, placeholders, later rules add to earlier ones', () => {
    const matching = (pattern: string, ...paths: string[]) => paths.map((url) => pathPattern(pattern).test(url));
    expect(matching('/*', '/')).toEqual([true]);
    expect(matching('/assets/*', '/assets/js/a.js', '/img/a.js')).toEqual([true, false]);
    expect(matching('/search-index-*', '/search-index-ab12.json', '/search-index.json')).toEqual([true, false]);
    expect(matching('/:section/sdk', '/basics/sdk', '/a/b/sdk')).toEqual([true, false]);
    expect(matching('/a.b', '/axb')).toEqual([false]);
    const layered = parseHeadersFile(
      '/*\n  Cache-Control: no-cache\n/assets/*\n  Cache-Control: public\n  X-Extra: 1\n',
    );
    expect(headersFor(layered, '/assets/a.js')).toEqual({'cache-control': 'no-cache, public', 'x-extra': '1'});
    expect(headersFor(layered, '/page')).toEqual({'cache-control': 'no-cache'});
  });
});
