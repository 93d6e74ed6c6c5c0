/**
 * Docusaurus cannot choose prism-react-renderer's thirty bundled grammars, all evaluated before hydration;
 * this aliases it to a copy with only the docs' languages. Why: BENCHMARKS.md, "Bytes shipped".
 * A layout change in a future prism-react-renderer fails the build loudly.
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

import {languagesInLoadOrder} from '../../lib/prism';

export {languagesInLoadOrder};

export const PLUGIN_NAME = 'lean-prism';

const requireFromSite = createRequire(path.join(process.cwd(), 'package.json'));

/** Where prism-react-renderer's bundled grammars start and where the code after them starts. */
export const SECTION_START = '// src/prism-langs.ts';
export const SECTION_END = '// src/themes/index.ts';
const CORE = 'var Prism = __toESM(require_prism());';

export function withGrammars(source: string, grammars: {id: string; code: string}[]): string {
  const start = source.indexOf(SECTION_START);
  const end = source.indexOf(SECTION_END);
  if (start < 0 || end < start || !source.slice(start, end).includes(CORE)) {
    throw new Error(
      `[${PLUGIN_NAME}] prism-react-renderer's build no longer has the "${SECTION_START}" … "${SECTION_END}" section ` +
        'this plugin replaces. Update plugins/lean-prism or remove it from docusaurus.config.ts.',
    );
  }
  const registrations = grammars.map(
    ({id, code}) => `// prismjs/components/prism-${id}.js\n(function (Prism) {\n${code}\n})(Prism);\n`,
  );
  return `${source.slice(0, start)}${SECTION_START} (lean: ${grammars.map(({id}) => id).join(', ')})\n${CORE}\n${registrations.join('')}\n${source.slice(end)}`;
}

export function leanPrismSource(languages: string[], require: NodeJS.Require = requireFromSite): string {
  const original = readFileSync(require.resolve('prism-react-renderer/dist/index.mjs'), 'utf8');
  const grammars = languagesInLoadOrder(languages, require).map((id) => ({
    id,
    code: readFileSync(require.resolve(`prismjs/components/prism-${id}.js`), 'utf8'),
  }));
  return withGrammars(original, grammars);
}

export default function leanPrism(context: LoadContext, options: {languages: string[]}): Plugin {
  const {additionalLanguages = []} = (context.siteConfig.themeConfig.prism ?? {}) as {additionalLanguages?: string[]};
  if (additionalLanguages.length > 0) {
    throw new Error(
      `[${PLUGIN_NAME}] themeConfig.prism.additionalLanguages is not loaded (src/theme/prism-include-languages): ` +
        `add ${additionalLanguages.join(', ')} to this plugin's \`languages\` option instead.`,
    );
  }
  const file = path.join(context.generatedFilesDir, PLUGIN_NAME, 'prism-react-renderer.mjs');
  return {
    name: PLUGIN_NAME,
    configureWebpack() {
      mkdirSync(path.dirname(file), {recursive: true});
      writeFileSync(file, leanPrismSource(options.languages));
      return {resolve: {alias: {'prism-react-renderer$': file}}};
    },
  };
}
