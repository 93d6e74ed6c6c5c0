/** Options of the llms-txt plugin: Joi schema, defaults and `validateOptions`. */
import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

export type PluginOptions = {
  /** `false` leaves the plugin out: no llms.txt, llms-full.txt or `.md` twins are written. */
  enabled: boolean;
  /** The one-paragraph summary under the H1 of llms.txt and llms-full.txt (default: the site's tagline). */
  summary?: string;
  /** The id of the docs plugin instance whose sidebar and pages are exported. */
  docsPluginId: string;
  /** The sidebar whose categories become the H2 sections of llms.txt, in its order. */
  sidebarId: string;
  /** The site path of the docs' MCP server, named in llms.txt (mcp/). */
  mcpPath?: string;
};

export type Options = Partial<PluginOptions>;

export const DEFAULT_OPTIONS = {
  enabled: true,
  docsPluginId: 'default',
  sidebarId: 'tutorialSidebar',
} as const satisfies Omit<PluginOptions, 'summary' | 'mcpPath'>;

export const optionsSchema = Joi.object<PluginOptions>({
  enabled: Joi.boolean().default(DEFAULT_OPTIONS.enabled),
  // One paragraph: no blank line inside (it becomes a single blockquote line).
  summary: Joi.string()
    .trim()
    .min(1)
    .pattern(/^[^\n]+$/, 'one line'),
  docsPluginId: Joi.string().default(DEFAULT_OPTIONS.docsPluginId),
  sidebarId: Joi.string().default(DEFAULT_OPTIONS.sidebarId),
  mcpPath: Joi.string().pattern(/^\/\S*$/, 'a site path'),
});

export function validateOptions({validate, options}: OptionValidationContext<Options, PluginOptions>): PluginOptions {
  return validate(optionsSchema, options);
}
