import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

import type {HighlightOptions} from '../../lib/highlight';

export type PluginOptions = {
  /** The OpenAPI source with `${NAME.path}` placeholders, relative to the site directory. */
  source: string;
  /** The brand the artifacts are generated for (default: the BRAND constant). */
  brand?: string;
  /** How the code blocks in the generated data are highlighted: the fences' options (docusaurus.config.ts). */
  highlight: HighlightOptions;
};

export type Options = Partial<Omit<PluginOptions, 'highlight'>> & Pick<PluginOptions, 'highlight'>;

export const DEFAULT_OPTIONS: Omit<PluginOptions, 'highlight'> = {
  source: 'api/openapi.yaml',
};

export const optionsSchema = Joi.object<PluginOptions>({
  source: Joi.string().default(DEFAULT_OPTIONS.source),
  brand: Joi.string().trim().min(1),
  highlight: Joi.object({
    languages: Joi.array().items(Joi.string()).min(1).required(),
    theme: Joi.object({plain: Joi.object().required(), styles: Joi.array().required()}).unknown().required(),
    magicComments: Joi.array().items(Joi.object()),
  }).required(),
});

export function validateOptions({validate, options}: OptionValidationContext<Options, PluginOptions>): PluginOptions {
  return validate(optionsSchema, options);
}
