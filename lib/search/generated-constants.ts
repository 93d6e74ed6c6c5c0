// Stands in for the search plugin's generated constants in its query code: the site's search options
// with the plugin's own defaults, so queries are built as the box builds them.

import {searchOptions} from '../search-options';

type Normalized = {
  language: string[];
  removeDefaultStopWordFilter: boolean | string[];
  fuzzyMatchingDistance: number;
  searchResultLimits: number;
};

// The plugin's own option defaults (its server-side validateOptions).
const {validateOptions} = require('@easyops-cn/docusaurus-search-local/dist/server/server/utils/validateOptions') as {
  validateOptions: (context: {options: unknown; validate: unknown}) => unknown;
};
const normalized = validateOptions({
  options: searchOptions,
  validate: (schema: {validate: (value: unknown) => {value: unknown; error?: Error}}, options: unknown) => {
    const {value, error} = schema.validate(options);
    if (error) throw error;
    return value;
  },
}) as Normalized;

export const language = [normalized.language].flat();
export const removeDefaultStopWordFilter = normalized.removeDefaultStopWordFilter;
export const fuzzyMatchingDistance = normalized.fuzzyMatchingDistance;
export const searchResultLimits = normalized.searchResultLimits;
