// Shaped like @docusaurus/plugin-google-gtag's options.ts.
import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

export type PluginOptions = {
  enabled: boolean;
  collectorUrl: string;
  /** Plausible's `domain`; defaults to the host of `siteConfig.url`. */
  domain?: string;
  allowLocalhost: boolean;
  scriptPath: string;
};

export type Options = Partial<PluginOptions>;

export const DEFAULT_OPTIONS = {
  enabled: true,
  collectorUrl: '/api/event',
  allowLocalhost: false,
  scriptPath: 'js/page-views.js',
} as const satisfies Omit<PluginOptions, 'domain'>;

const COLLECTOR_URL = /^(?:https?:\/\/[^\s/?#]+(?:[/?#]\S*)?|\/(?!\/)\S*)$/;
const SCRIPT_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\w./-]+\.js$/;
const DOMAIN = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?$/i;

export const pluginOptionsSchema = Joi.object<PluginOptions>({
  enabled: Joi.boolean().default(DEFAULT_OPTIONS.enabled),
  collectorUrl: Joi.string()
    .pattern(COLLECTOR_URL, 'a path starting with "/" or an http(s) URL')
    .default(DEFAULT_OPTIONS.collectorUrl),
  domain: Joi.string().pattern(DOMAIN, 'a host name'),
  allowLocalhost: Joi.boolean().default(DEFAULT_OPTIONS.allowLocalhost),
  scriptPath: Joi.string().pattern(SCRIPT_PATH, 'a relative .js path').default(DEFAULT_OPTIONS.scriptPath),
});

export function validateOptions({validate, options}: OptionValidationContext<Options, PluginOptions>): PluginOptions {
  return validate(pluginOptionsSchema, options);
}
