/** Options of the csp plugin: the Joi schema, the defaults and `validateOptions`. */
import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

export type PluginOptions = {
  /** The page-views collector (ANALYTICS.collectorUrl): an absolute URL adds its origin to `connect-src`. */
  collectorUrl?: string;
  /** Where the nginx include (`set $docs_csp "…";`) is written, relative to the build directory. */
  nginxInclude: string;
  /** Where the `_headers` file of Netlify and Cloudflare Pages is written, relative to the build directory. */
  headersFile: string;
};

export type Options = Partial<PluginOptions>;

export const DEFAULT_OPTIONS = {
  nginxInclude: '.nginx/csp.conf',
  headersFile: '_headers',
} as const satisfies Omit<PluginOptions, 'collectorUrl'>;

/** A relative path without `..` segments. */
const RELATIVE_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\w./-]+$/;

export const pluginOptionsSchema = Joi.object<PluginOptions>({
  collectorUrl: Joi.string(),
  nginxInclude: Joi.string().pattern(RELATIVE_PATH, 'a relative path').default(DEFAULT_OPTIONS.nginxInclude),
  headersFile: Joi.string().pattern(RELATIVE_PATH, 'a relative path').default(DEFAULT_OPTIONS.headersFile),
});

export function validateOptions({validate, options}: OptionValidationContext<Options, PluginOptions>): PluginOptions {
  return validate(pluginOptionsSchema, options);
}
