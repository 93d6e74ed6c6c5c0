// What the browser bundle gets for prism-react-renderer: the Prism object theme-classic passes to the (empty)
// `@theme/prism-include-languages`, with no grammar. Any other import fails the build, by name.
export const Prism = {languages: {}};
