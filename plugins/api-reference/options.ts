import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

export type PluginOptions = {
  /** The OpenAPI source with `${NAME.path}` placeholders, relative to the site directory. */
  source: string;
  /** The brand the artifacts are generated for (default: the BRAND constant). */
  brand?: string;
};

export type Options = Partial<PluginOptions>;

export const DEFAULT_OPTIONS: PluginOptions = {
  source: 'api/openapi.yaml',
};

export const optionsSchema = Joi.object<PluginOptions>({
  source: Joi.string().default(DEFAULT_OPTIONS.source),
  brand: Joi.string().trim().min(1),
});

export function validateOptions({validate, options}: OptionValidationContext<Options, PluginOptions>): PluginOptions {
  return validate(optionsSchema, options);
}
