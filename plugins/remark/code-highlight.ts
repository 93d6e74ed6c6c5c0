/**
 * A rehype plugin that highlights every fenced code block while the MDX page compiles (lib/highlight), into the
 * `highlighted` HTML string the CodeBlock renders as it is: no grammar ships to the browser and hydration
 * re-creates no token. Why: BENCHMARKS.md, "Code highlighted at build time".
 */
import path from 'node:path';

import {loadHighlighter, type Highlighter, type HighlightOptions} from '../../lib/highlight';

export type Options = HighlightOptions;

type HastNode = {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
  position?: {start: {line: number; column: number}};
};

const textOf = (node: HastNode): string =>
  node.type === 'text' ? (node.value ?? '') : (node.children ?? []).map(textOf).join('');

/** The rehype plugin (docusaurus.config.ts: docs `rehypePlugins`). */
export default function codeHighlight(options: Options) {
  let highlighter: Promise<Highlighter> | undefined;
  return async (tree: HastNode, file: {path?: string}) => {
    highlighter ??= loadHighlighter(options);
    const highlight = await highlighter;
    const visit = (node: HastNode, parent: HastNode | undefined) => {
      if (node.type === 'element' && node.tagName === 'code' && parent?.tagName === 'pre') {
        const properties = (node.properties ??= {});
        const className = ([] as unknown[]).concat(properties.className ?? []).map(String);
        const language = className.find((name) => name.startsWith('language-'))?.slice('language-'.length);
        const metastring = typeof properties.metastring === 'string' ? properties.metastring : undefined;
        const position = node.position?.start ?? parent.position?.start;
        const where = `${path.relative(process.cwd(), file.path ?? '<mdx>')}:${position?.line ?? 0}`;
        if (metastring && /\bshowLineNumbers\b/.test(metastring)) {
          throw new Error(`${where}: showLineNumbers is not supported by plugins/remark/code-highlight.`);
        }
        // The CodeBlock renders this HTML as it is; the text stays the children, for MDX and the copy button.
        properties.highlighted = highlight(textOf(node), language, metastring).html;
        return;
      }
      for (const child of node.children ?? []) visit(child, node);
    };
    visit(tree, undefined);
  };
}
