import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

import {test, expect} from '@playwright/test';
import type {LoadContext} from '@docusaurus/types';

import fasterCss, {isPresetEnv, POSTCSS_CONFIG_FILES, usesLightningCss} from './index';

const presetEnv = [require.resolve('postcss-preset-env', {paths: [require.resolve('@docusaurus/bundler')]}), {}];
const otherPlugin = {postcssPlugin: 'postcss-other'};

function contextWith(experimentalFaster: unknown, siteDir = __dirname): LoadContext {
  return {siteDir, siteConfig: {future: {experimental_faster: experimentalFaster}}} as unknown as LoadContext;
}

test.describe('faster-css plugin', () => {
  test('recognises postcss-preset-env by path, by name and as a plugin object', () => {
    expect(isPresetEnv(presetEnv)).toBe(true);
    expect(isPresetEnv('postcss-preset-env')).toBe(true);
    expect(isPresetEnv({postcssPlugin: 'postcss-preset-env'})).toBe(true);
    expect(isPresetEnv(otherPlugin)).toBe(false);
    expect(isPresetEnv(['/x/node_modules/postcss-preset-env-like/index.js', {}])).toBe(false);
  });

  test('reads the normalised Faster options', () => {
    expect(usesLightningCss(contextWith({lightningCssMinimizer: true, rspackBundler: true}).siteConfig)).toBe(true);
    expect(usesLightningCss(contextWith({lightningCssMinimizer: false}).siteConfig)).toBe(false);
    expect(usesLightningCss(contextWith(false).siteConfig)).toBe(false);
  });

  test('drops only postcss-preset-env, and only when Lightning CSS minifies; never searches for a config file', () => {
    const options = {ident: 'postcss', plugins: [presetEnv, otherPlugin]};
    const withLightning = fasterCss(contextWith({lightningCssMinimizer: true})).configurePostCss!(options);
    expect(withLightning).toEqual({ident: 'postcss', config: false, plugins: [otherPlugin]});
    const withCssnano = fasterCss(contextWith({lightningCssMinimizer: false})).configurePostCss!(options);
    expect(withCssnano).toEqual({...options, config: false});
  });

  test('refuses a site with a PostCSS config file, which would be ignored', () => {
    const siteDir = mkdtempSync(path.join(tmpdir(), 'faster-css-'));
    try {
      expect(() => fasterCss(contextWith({lightningCssMinimizer: true}, siteDir))).not.toThrow();
      writeFileSync(path.join(siteDir, 'postcss.config.js'), 'module.exports = {plugins: []};\n');
      expect(() => fasterCss(contextWith({lightningCssMinimizer: true}, siteDir))).toThrow(/postcss\.config\.js would be ignored/);
    } finally {
      rmSync(siteDir, {recursive: true, force: true});
    }
  });

  test('the site root has no PostCSS config file', () => {
    const siteDir = path.resolve(__dirname, '../..');
    expect(POSTCSS_CONFIG_FILES.filter((name) => existsSync(path.join(siteDir, name)))).toEqual([]);
  });

  test("reads what Docusaurus makes of `experimental_faster: true` and `false`", () => {
    const {DEFAULT_FASTER_CONFIG, DEFAULT_FASTER_CONFIG_TRUE} = require('@docusaurus/core/lib/server/configValidation') as {
      DEFAULT_FASTER_CONFIG: unknown;
      DEFAULT_FASTER_CONFIG_TRUE: unknown;
    };
    expect(usesLightningCss(contextWith(DEFAULT_FASTER_CONFIG_TRUE).siteConfig)).toBe(true);
    expect(usesLightningCss(contextWith(DEFAULT_FASTER_CONFIG).siteConfig)).toBe(false);
  });
});
