/**
 * Drops Docusaurus's postcss-preset-env from the CSS loader chain when Faster's Lightning CSS
 * minimizer is on (issue 6, build time). Lightning CSS lowers syntax and adds or removes vendor
 * prefixes for the same browserslist targets while it minifies the bundle, so running
 * postcss-preset-env over every CSS file as well only repeats that work: ~0.6 s of main-thread time
 * in an ~8 s cold build. Under webpack (cssnano) postcss-preset-env stays. The shipped CSS is
 * equivalent: when this was written the only differences were autoprefixer's `-webkit-text-decoration`
 * copies of one-keyword values (read unprefixed by every target) and one `-moz-column-gap` that
 * Lightning CSS adds; tests/budgets.spec.ts holds its size.
 */
import type {LoadContext, Plugin} from '@docusaurus/types';

export const PLUGIN_NAME = 'faster-css';

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
  const dropPresetEnv = usesLightningCss(context.siteConfig);
  return {
    name: PLUGIN_NAME,
    configurePostCss(options) {
      return dropPresetEnv ? {...options, plugins: options.plugins.filter((entry) => !isPresetEnv(entry))} : options;
    },
  };
}
