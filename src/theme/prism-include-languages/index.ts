/**
 * Ejected (a wrap cannot take away the original's `require`): the stock file registers
 * themeConfig.prism.additionalLanguages with require(`prismjs/components/prism-${lang}`), a require
 * context over every Prism grammar. plugins/lean-prism registers our grammars instead and refuses
 * additionalLanguages; with that list empty the context still resolved "./" to prismjs/components/index.js,
 * Prism's Node loader with its whole language table (about 9 KB gzip), in every page's main.js.
 */
export default function prismIncludeLanguages(): void {}
