/**
 * Ejected (a wrap cannot take away the original's require context over every Prism grammar, which
 * puts Prism's Node loader in every main.js); plugins/bundle registers our grammars instead.
 * Why: BENCHMARKS.md, "Bytes shipped".
 */
export default function prismIncludeLanguages(): void {}
