/**
 * Ejected: the stock file's require context pulls Prism's Node loader into main.js even with no additionalLanguages;
 * the browser needs no grammar, as code is highlighted at build time (plugins/remark/code-highlight).
 */
export default function prismIncludeLanguages(): void {}
