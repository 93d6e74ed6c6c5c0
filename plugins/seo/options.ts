/** Options of the seo plugin: the Joi schema, the defaults and `validateOptions`. */
import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

export type PluginOptions = {
  /** The sitemap's file name under the base URL, as the classic preset's sitemap plugin writes it. */
  sitemapFilename: string;
  /** Path prefixes crawlers are asked not to fetch (none by default: noindex pages must stay fetchable). */
  disallow: string[];
};

export type Options = Partial<PluginOptions>;

export const DEFAULT_OPTIONS = {
  sitemapFilename: 'sitemap.xml',
  disallow: [],
} as const satisfies PluginOptions;

export const pluginOptionsSchema = Joi.object<PluginOptions>({
  sitemapFilename: Joi.string()
    .pattern(/^[\w.-]+\.xml$/, 'a file name ending in .xml')
    .default(DEFAULT_OPTIONS.sitemapFilename),
  disallow: Joi.array()
    .items(Joi.string().pattern(/^\/\S*$/, 'a path starting with "/"'))
    .default([...DEFAULT_OPTIONS.disallow]),
});

export function validateOptions({validate, options}: OptionValidationContext<Options, PluginOptions>): PluginOptions {
  return validate(pluginOptionsSchema, options);
}
