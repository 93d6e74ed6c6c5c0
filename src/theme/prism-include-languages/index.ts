/**
 * Ejected: a wrap cannot take away the stock file's require context, which even with no additionalLanguages pulls
 * Prism's Node loader into main.js; plugins/bundle registers our grammars instead. Why: BENCHMARKS.md, "Bytes shipped".
 */
export default function prismIncludeLanguages(): void {}
