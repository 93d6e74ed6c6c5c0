import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

export type PluginOptions = {
  /** An absolute URL adds its origin to `connect-src`. */
  collectorUrl?: string;
  nginxInclude: string;
  headersFile: string;
};

export type Options = Partial<PluginOptions>;

export const DEFAULT_OPTIONS = {
  nginxInclude: '.nginx/csp.conf',
  headersFile: '_headers',
} as const satisfies Omit<PluginOptions, 'collectorUrl'>;

const RELATIVE_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\w./-]+$/;

export const pluginOptionsSchema = Joi.object<PluginOptions>({
  collectorUrl: Joi.string(),
  nginxInclude: Joi.string().pattern(RELATIVE_PATH, 'a relative path').default(DEFAULT_OPTIONS.nginxInclude),
  headersFile: Joi.string().pattern(RELATIVE_PATH, 'a relative path').default(DEFAULT_OPTIONS.headersFile),
});

export function validateOptions({validate, options}: OptionValidationContext<Options, PluginOptions>): PluginOptions {
  return validate(pluginOptionsSchema, options);
}
