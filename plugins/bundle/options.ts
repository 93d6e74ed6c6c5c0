import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

export type PluginOptions = {
  /** Prism language ids (prismjs/components.json) the code fences use; what they require is added. */
  prismLanguages: string[];
};

export type Options = Partial<PluginOptions>;

export const pluginOptionsSchema = Joi.object<PluginOptions>({
  prismLanguages: Joi.array()
    .items(Joi.string().pattern(/^[a-z][a-z0-9-]*$/, 'a Prism language id'))
    .min(1)
    .required(),
});

export function validateOptions({validate, options}: OptionValidationContext<Options, PluginOptions>): PluginOptions {
  return validate(pluginOptionsSchema, options);
}
