/**
 * A page's Markdown twin from its built HTML: the one rendering of every component, so a new
 * component needs no second renderer. Only the article's Markdown content is read; theme chrome
 * (heading anchors, copy buttons, tab lists) is dropped and a tab set becomes a list of labelled items.
 */
import type {Element, ElementContent, Root, RootContent} from 'hast';
import {toText} from 'hast-util-to-text';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import {unified} from 'unified';

export type TwinContext = {
  /** Absolute URL of the page: `#anchor` links resolve against it. */
  pageUrl: string;
  /** Where the file came from, for error messages. */
  file: string;
};

const classes = (node: Element): string[] => {
  const value = node.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
};
const hasClass = (node: Element, name: string) => classes(node).includes(name);
const isElement = (node: RootContent | ElementContent | Root): node is Element => node.type === 'element';

function findFirst(node: Root | Element, test: (element: Element) => boolean): Element | undefined {
  for (const child of node.children) {
    if (!isElement(child)) continue;
    if (test(child)) return child;
    const found = findFirst(child, test);
    if (found) return found;
  }
  return undefined;
}

function findAll(node: Element, test: (element: Element) => boolean): Element[] {
  return node.children.filter(isElement).flatMap((child) => (test(child) ? [child] : findAll(child, test)));
}

const element = (tagName: string, children: ElementContent[], properties: Element['properties'] = {}): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
const text = (value: string): ElementContent => ({type: 'text', value});

/** The text exactly as written (toText would collapse the spaces of code outside its `pre`). */
const rawText = (node: Element | ElementContent): string =>
  node.type === 'text'
    ? node.value
    : isElement(node)
      ? node.tagName === 'br'
        ? '\n'
        : node.children.map(rawText).join('')
      : '';

/** A code block as `<pre><code class="language-x">`: what rehype-remark turns into a fenced block. */
function codeBlock(container: Element): Element {
  const language = classes(container)
    .find((name) => name.startsWith('language-'))
    ?.slice('language-'.length);
  const code = findFirst(container, (node) => node.tagName === 'code');
  const lines = code ? findAll(code, (node) => hasClass(node, 'token-line')) : [];
  const source =
    lines.length > 0 ? lines.map((line) => rawText(line).replace(/\n$/, '')).join('\n') : code ? rawText(code) : '';
  const title = findFirst(container, (node) => classes(node).some((name) => name.startsWith('codeBlockTitle')));
  const block = element('pre', [
    element('code', [text(source.replace(/\n+$/, ''))], language ? {className: [`language-${language}`]} : {}),
  ]);
  return title ? element('div', [element('p', [element('strong', [text(toText(title))])]), block]) : block;
}

/**
 * A tab set as a list, one item per tab that opens with its label and a colon (`- Python:`): what follows the set
 * stays in its section, where headings per tab would file it under the last tab.
 */
function tabList(container: Element): Element {
  const labels = new Map(
    findAll(container, (node) => node.properties.role === 'tab').map((tab) => [
      String(tab.properties.id),
      toText(tab).trim(),
    ]),
  );
  const panels = findAll(container, (node) => node.properties.role === 'tabpanel');
  return element(
    'ul',
    panels.map((panel) =>
      element('li', [
        element('p', [text(`${labels.get(String(panel.properties.ariaLabelledBy)) ?? ''}:`)]),
        ...panel.children,
      ]),
    ),
  );
}

/** An admonition as a blockquote that opens with its title: `> **Note:** …`. */
function admonition(container: Element): Element {
  const heading = findFirst(container, (node) => classes(node).some((name) => name.startsWith('admonitionHeading')));
  const content = findFirst(container, (node) => classes(node).some((name) => name.startsWith('admonitionContent')));
  const title = heading ? toText(heading).trim() : '';
  const label = element('strong', [text(`${title.charAt(0).toUpperCase()}${title.slice(1)}:`)]);
  const [first, ...rest] =
    content?.children.filter((child) => !(child.type === 'text' && child.value.trim() === '')) ?? [];
  const opening =
    first && isElement(first) && first.tagName === 'p'
      ? element('p', [label, text(' '), ...first.children])
      : undefined;
  return element(
    'blockquote',
    opening ? [opening, ...rest] : [element('p', [label]), ...(first ? [first] : []), ...rest],
  );
}

/** Rewrites the content tree in place into plain HTML that rehype-remark maps one to one. */
function simplify(parent: Element, context: TwinContext, depth = 1): void {
  let sectionDepth = depth;
  const children: ElementContent[] = [];
  for (const child of parent.children) {
    if (!isElement(child)) {
      if (child.type !== 'comment') children.push(child);
      continue;
    }
    const tag = child.tagName;
    if (/^h[1-6]$/.test(tag)) sectionDepth = Number(tag[1]);
    if (hasClass(child, 'hash-link') || tag === 'button' || tag === 'script' || tag === 'style') continue;
    if (hasClass(child, 'theme-code-block')) {
      children.push(codeBlock(child));
      continue;
    }
    if (hasClass(child, 'tabs-container')) {
      const list = tabList(child);
      simplify(list, context, sectionDepth);
      children.push(list);
      continue;
    }
    if (hasClass(child, 'theme-admonition')) {
      const quote = admonition(child);
      simplify(quote, context, sectionDepth);
      children.push(quote);
      continue;
    }
    // An inline diagram (an SVG imported by the page): its accessible name is its description.
    if (tag === 'svg' || (child.properties.role === 'img' && tag !== 'img')) {
      const label = String(
        child.properties.ariaLabel ??
          findFirst(child, (node) => node.properties.role === 'img')?.properties.ariaLabel ??
          '',
      );
      if (label) children.push(element('p', [element('em', [text(`Diagram: ${label}`)])]));
      continue;
    }
    if (child.properties.role === 'group' && findFirst(child, (node) => node.tagName === 'svg')) {
      const svg = findFirst(child, (node) => node.tagName === 'svg')!;
      const label = String(svg.properties.ariaLabel ?? child.properties.ariaLabel ?? '');
      if (label) children.push(element('p', [element('em', [text(`Diagram: ${label}`)])]));
      continue;
    }
    // Site-relative links and images become absolute; links to other hosts stay as written.
    for (const attribute of ['href', 'src'] as const) {
      const value = child.properties[attribute];
      if ((tag === 'a' || tag === 'img') && typeof value === 'string' && /^[/#]/.test(value)) {
        child.properties[attribute] = new URL(value, context.pageUrl).href;
      }
    }
    simplify(child, context, sectionDepth);
    children.push(child);
  }
  parent.children = children;
}

const parser = unified().use(rehypeParse);
const toMarkdown = unified().use(rehypeRemark).use(remarkGfm, {tablePipeAlign: false}).use(remarkStringify, {
  bullet: '-',
  emphasis: '_',
  fences: true,
  rule: '-',
  listItemIndent: 'one',
  resourceLink: true,
});

/** The Markdown body of a built doc page (its title, which the twin's header carries, left out). */
export async function htmlToMarkdown(html: string, context: TwinContext): Promise<string> {
  const tree = parser.parse(html);
  const content = findFirst(tree, (node) => hasClass(node, 'theme-doc-markdown'));
  if (!content) {
    throw new Error(`${context.file}: no .theme-doc-markdown element: not a built doc page`);
  }
  // The title heading is rendered in the twin's header.
  content.children = content.children.filter(
    (child) => !(isElement(child) && (child.tagName === 'header' || child.tagName === 'h1')),
  );
  simplify(content, context);
  const mdast = await toMarkdown.run({type: 'root', children: [content]} as Root);
  return toMarkdown.stringify(mdast as never).trim();
}
