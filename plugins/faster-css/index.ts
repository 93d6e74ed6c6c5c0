/**
 * Trims the per-file PostCSS work of Docusaurus's CSS loader chain (issue 6, build time):
 * - postcss-loader looks for a PostCSS config file with a fresh cosmiconfig search (28 names in
 *   every folder up to the root) for each CSS file: ~0.4 s of a ~8 s cold build. The site has no such
 *   file, so `config: false` skips the search; the plugin throws if one is ever added at the root.
 * - With Faster's Lightning CSS minimizer on, postcss-preset-env is dropped: Lightning CSS lowers
 *   syntax and adds or removes vendor prefixes for the same browserslist targets while it minifies,
 *   so running postcss-preset-env over every file only repeated that work (~0.6 s). Under webpack
 *   (cssnano) it stays. The shipped CSS is equivalent: when this was written the only differences
 *   were autoprefixer's `-webkit-text-decoration` copies of one-keyword values (read unprefixed by
 *   every target) and one `-moz-column-gap` that Lightning CSS adds; tests/budgets.spec.ts holds its size.
 */
import {existsSync} from 'node:fs';
import path from 'node:path';

import type {LoadContext, Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'faster-css';

/** PostCSS config files postcss-loader would otherwise find at the site root. */
export const POSTCSS_CONFIG_FILES = [
  'postcss.config.js',
  'postcss.config.cjs',
  'postcss.config.mjs',
  'postcss.config.ts',
  'postcss.config.cts',
  'postcss.config.mts',
  '.postcssrc',
  '.postcssrc.json',
  '.postcssrc.yaml',
  '.postcssrc.yml',
  '.postcssrc.js',
  '.postcssrc.cjs',
  '.postcssrc.mjs',
  '.postcssrc.ts',
];

/** Whether a PostCSS plugin entry (a module path, a [path, options] pair or a plugin) is postcss-preset-env. */
export function isPresetEnv(entry: unknown): boolean {
  const name: unknown = Array.isArray(entry) ? entry[0] : entry;
  if (typeof name === 'string') {
    return /[\\/]postcss-preset-env[\\/]|^postcss-preset-env$/.test(name);
  }
  return typeof name === 'object' && name !== null && (name as {postcssPlugin?: unknown}).postcssPlugin === 'postcss-preset-env';
}

/** Whether this build minifies CSS with Lightning CSS (`future.experimental_faster`, normalised by Docusaurus). */
export function usesLightningCss(siteConfig: LoadContext['siteConfig']): boolean {
  const faster: unknown = siteConfig.future.experimental_faster;
  return typeof faster === 'object' && faster !== null && (faster as {lightningCssMinimizer?: unknown}).lightningCssMinimizer === true;
}

export default function fasterCss(context: LoadContext): Plugin {
  const configFile = POSTCSS_CONFIG_FILES.find((name) => existsSync(path.join(context.siteDir, name)));
  if (configFile) {
    throw new Error(`${PLUGIN_NAME}: ${configFile} would be ignored (PostCSS config files are not read); add its plugins in a configurePostCss() plugin instead.`);
  }
  const dropPresetEnv = usesLightningCss(context.siteConfig);
  return {
    name: PLUGIN_NAME,
    configurePostCss(options) {
      return {
        ...options,
        config: false,
        plugins: dropPresetEnv ? options.plugins.filter((entry) => !isPresetEnv(entry)) : options.plugins,
      };
    },
  };
}
