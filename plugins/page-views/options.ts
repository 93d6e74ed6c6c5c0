/**
 * Options of the page-views plugin: the Joi schema, the defaults and `validateOptions`
 * (the shape of @docusaurus/plugin-google-gtag's options.ts).
 */
import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

export type PluginOptions = {
  /** `false` removes the plugin entirely: no script is written or injected. */
  enabled: boolean;
  /** Where page views are POSTed: a same-origin path (proxied by the web server) or any http(s) URL. */
  collectorUrl: string;
  /** The site id the collector knows this site by (Plausible's `domain`); defaults to the host of `siteConfig.url`. */
  domain?: string;
  /** Send from localhost / 127.0.0.1 too (off by default so local builds never count). */
  allowLocalhost: boolean;
  /** Where the script is written under the build directory and served under the base URL. */
  scriptPath: string;
};

/** What a site config may pass: every option except `domain` has a default. */
export type Options = Partial<PluginOptions>;

export const DEFAULT_OPTIONS = {
  enabled: true,
  collectorUrl: '/api/event',
  allowLocalhost: false,
  scriptPath: 'js/page-views.js',
} as const satisfies Omit<PluginOptions, 'domain'>;

/** A root-relative path (`/api/event`, not `//host/…`) or an absolute http(s) URL. */
const COLLECTOR_URL = /^(?:https?:\/\/[^\s/?#]+(?:[/?#]\S*)?|\/(?!\/)\S*)$/;
/** A relative `.js` path without `..` segments, e.g. `js/page-views.js`. */
const SCRIPT_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\w./-]+\.js$/;
/** A host name with an optional port, e.g. `docs.example.com`. */
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
