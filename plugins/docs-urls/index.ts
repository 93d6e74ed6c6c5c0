/**
 * docs-urls: fails the build when a served file points at a page or anchor of this site that the
 * build lacks (check.ts). Docusaurus's own check covers the links it renders, not absolute URLs on
 * our own origin: `doc_url` in code blocks, openapi.yaml, the Postman files, the llms files.
 *
 * Ordering: Docusaurus starts every plugin's `postBuild` at once (`Promise.all` in
 * @docusaurus/core's buildLocale) and has no hook after them, and api-artifacts, llms-txt, seo and
 * css-prune write their files in theirs. It calls the hooks in plugin order, synchronously, so when
 * this plugin's hook runs the hooks of the plugins after it have not been called yet: it wraps them
 * to learn when they end, and checks after that. Hence this plugin comes first in `plugins`
 * (docusaurus.config.ts); only the preset's sitemap, whose file is not checked, runs before it.
 */
import path from 'node:path';

import type {LoadContext, LoadedPlugin, Plugin} from '@docusaurus/types';

import {checkBuildUrls, formatProblems} from './check';

export const PLUGIN_NAME = 'docs-urls';

/** Plugins that Docusaurus places before the site's own, with a postBuild whose output is not checked. */
const UNCHECKED_EARLIER = new Set(['docusaurus-plugin-sitemap']);

type PostBuild = NonNullable<Plugin['postBuild']>;

/**
 * Wraps the `postBuild` of `plugins` (before Docusaurus calls them) so that one can tell which
 * have started and await their end. `settled` is false if any of them failed.
 */
export function observePostBuilds(plugins: readonly LoadedPlugin[]): {notStarted: () => string[]; settled: Promise<boolean>} {
  const observed = plugins.flatMap((plugin) => {
    const original = plugin.postBuild;
    if (!original) {
      return [];
    }
    let started = false;
    let settle: (succeeded: boolean) => void = () => undefined;
    const settled = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    const wrapped: PostBuild = async (props) => {
      started = true;
      try {
        await original.call(plugin, props);
        settle(true);
      } catch (error) {
        settle(false);
        throw error;
      }
    };
    (plugin as {postBuild?: PostBuild}).postBuild = wrapped;
    return [{name: plugin.name, started: () => started, settled}];
  });
  return {
    notStarted: () => observed.filter((entry) => !entry.started()).map((entry) => entry.name),
    settled: Promise.all(observed.map((entry) => entry.settled)).then((results) => results.every(Boolean)),
  };
}

export default function pluginDocsUrls(context: LoadContext): Plugin<void> {
  const {siteConfig, baseUrl} = context;
  return {
    name: PLUGIN_NAME,

    // Must not await before wrapping: Docusaurus calls the later hooks as soon as this one returns.
    async postBuild({outDir, plugins}) {
      const index = plugins.findIndex((plugin) => plugin.name === PLUGIN_NAME);
      const earlier = plugins.slice(0, index).filter((plugin) => plugin.postBuild && !UNCHECKED_EARLIER.has(plugin.name));
      if (earlier.length > 0) {
        throw new Error(
          `[${PLUGIN_NAME}] The postBuild of ${earlier.map((plugin) => plugin.name).join(', ')} starts before this plugin's, ` +
            `which cannot wait for the files it writes: put ./plugins/docs-urls first in \`plugins\` (docusaurus.config.ts).`,
        );
      }
      const later = observePostBuilds(plugins.slice(index + 1));
      await new Promise((resolve) => setImmediate(resolve));
      const notStarted = later.notStarted();
      if (notStarted.length > 0) {
        // Docusaurus no longer runs the hooks together: waiting would never end.
        throw new Error(`[${PLUGIN_NAME}] The postBuild of ${notStarted.join(', ')} did not start with this plugin's, so the URL check cannot run after it.`);
      }
      if (!(await later.settled)) {
        // Another postBuild failed; Docusaurus reports that, and its files may be incomplete.
        return;
      }
      const problems = await checkBuildUrls({buildDir: outDir, siteUrl: siteConfig.url, baseUrl});
      if (problems.length > 0) {
        const count = problems.length === 1 ? '1 URL' : `${problems.length} URLs`;
        throw new Error(
          `[${PLUGIN_NAME}] ${count} of ${siteConfig.url} in the built files point at no page or anchor of the build:\n` +
            formatProblems(problems, (file) => path.relative(process.cwd(), path.join(outDir, file))),
        );
      }
    },
  };
}
