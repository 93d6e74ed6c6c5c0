/** Prism language ids in prismjs's load order, with the ones they require: shared by the bundle and the page checks. */
import {createRequire} from 'node:module';
import path from 'node:path';

const requireFromSite = createRequire(path.join(process.cwd(), 'package.json'));

type ComponentsJson = {languages: Record<string, unknown>};
type DependencyLoader = (components: ComponentsJson, load: string[]) => {getIds(): string[]};

/** The ids to register, in load order, with everything they require or must follow. */
export function languagesInLoadOrder(languages: string[], require: NodeJS.Require = requireFromSite): string[] {
  const components = require('prismjs/components.js') as ComponentsJson;
  const unknown = languages.filter((id) => !(id in components.languages));
  if (unknown.length > 0) {
    throw new Error(`unknown Prism language(s): ${unknown.join(', ')} (see prismjs/components.json).`);
  }
  const getLoader = require('prismjs/dependencies') as DependencyLoader;
  return getLoader(components, languages).getIds();
}
