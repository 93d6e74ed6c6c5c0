/**
 * A Markdown twin as a tree of sections, each with the anchor the built HTML gives its heading, so a
 * caller can ask for one section (`/basics/sdk#error-handling`), trim it to a budget and keep only
 * the code tabs of its languages. A tab set is a list in the twin (plugins/llms-txt), one item per tab
 * opening with its label and a colon; the HTML's tab list says which labels are tabs.
 */

export type Section = {
  heading: string;
  depth: number;
  /** The heading's id in the HTML; null for the page itself. */
  anchor: string | null;
  /** Lines [start, end) of the twin, heading included. */
  start: number;
  end: number;
  children: Section[];
};

export type ParsedPage = {
  title: string;
  lines: string[];
  root: Section;
  byAnchor: Map<string, Section>;
  /** The labels of the page's code tabs, normalized. */
  tabs: Set<string>;
};

/** Characters per token: the rough figure `max_tokens` is converted with. */
export const CHARS_PER_TOKEN = 4;
/** get_page's budget, in tokens, for a whole page asked for without max_tokens. */
export const DEFAULT_PAGE_TOKENS = 4_000;

const ENTITIES: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' '};
const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) =>
    name.startsWith('#x')
      ? String.fromCodePoint(parseInt(name.slice(2), 16))
      : name.startsWith('#')
        ? String.fromCodePoint(Number(name.slice(1)))
        : (ENTITIES[name.toLowerCase()] ?? whole),
  );

const normalize = (text: string) =>
  text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*\\\u200b]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** The page's h2–h6 headings in order, with their ids, and the labels of its code tabs. */
export function htmlHeadings(html: string): {headings: {depth: number; id: string; text: string}[]; tabs: Set<string>} {
  const headings = [...html.matchAll(/<h([2-6])\b([^>]*)>([\s\S]*?)<\/h\1>/g)].flatMap((match) => {
    const id = /\bid=(?:"([^"]+)"|([^\s>]+))/.exec(match[2]!);
    if (!id) return [];
    const text = decodeEntities(match[3]!.replace(/<a[^>]*hash-link[\s\S]*?<\/a>/g, '').replace(/<[^>]+>/g, ''));
    return [{depth: Number(match[1]), id: id[1] ?? id[2]!, text: normalize(text)}];
  });
  const tabs = new Set(
    [...html.matchAll(/<li\b[^>]*role=["']?tab\b[^>]*>([^<]*)/g)].map((match) => normalize(decodeEntities(match[1]!))),
  );
  return {headings, tabs};
}

/** The section tree of a twin, its headings matched in order to the HTML's. */
export function parsePage(markdown: string, html: string): ParsedPage {
  const lines = markdown.split('\n');
  const {headings, tabs} = htmlHeadings(html);
  const title = /^# (.+)$/.exec(lines[0] ?? '')?.[1] ?? '';
  const root: Section = {heading: title, depth: 1, anchor: null, start: 0, end: lines.length, children: []};
  const byAnchor = new Map<string, Section>();
  const stack: Section[] = [root];
  let fence: string | null = null;
  let next = 0;
  lines.forEach((line, index) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return;
    }
    const heading = fence === null && index > 0 ? /^(#{2,6}) (.+)$/.exec(line) : null;
    if (!heading) return;
    const depth = heading[1]!.length;
    const text = heading[2]!.trim();
    const expected = headings[next];
    const same = expected !== undefined && expected.text === normalize(text);
    const positional = expected !== undefined && expected.depth === depth;
    const anchor = same || positional ? expected!.id : null;
    if (anchor !== null) next += 1;
    const section: Section = {
      heading: text,
      depth,
      anchor,
      start: index,
      end: lines.length,
      children: [],
    };
    while (stack.length > 1 && stack.at(-1)!.depth >= depth) stack.pop()!.end = index;
    stack.at(-1)!.children.push(section);
    stack.push(section);
    if (anchor !== null) byAnchor.set(anchor, section);
  });
  return {title, lines, root, byAnchor, tabs};
}

const LANGUAGE_ALIASES: Record<string, string[]> = {
  curl: ['curl', 'bash', 'shell', 'sh', 'http', 'cli'],
  python: ['python', 'py', 'requests'],
  typescript: ['typescript', 'ts', 'node', 'nodejs', 'node.js', 'javascript', 'js', 'sdk'],
  javascript: ['javascript', 'js', 'node', 'nodejs', 'node.js', 'typescript', 'ts', 'sdk'],
  html: ['html', 'markup'],
};

/** Whether a code tab's label is one of the wanted languages (by name or alias). */
export function tabMatches(label: string, languages: readonly string[]): boolean {
  const name = normalize(label).replace(/[^a-z0-9.]+/g, ' ');
  const words = new Set(name.split(' ').concat(name.replace(/ /g, '')));
  return languages.some((language) => {
    const wanted = language.trim().toLowerCase();
    const aliases = Object.entries(LANGUAGE_ALIASES).find(([key, list]) => key === wanted || list.includes(wanted));
    return (
      words.has(wanted) || (aliases !== undefined && [aliases[0], ...aliases[1]].some((alias) => words.has(alias)))
    );
  });
}

export type Rendered = {
  markdown: string;
  leftOut: Section[];
  cut: boolean;
  /** Labels of code tabs shown in full because none of them is one of the wanted languages. */
  unmatchedTabs: string[];
};

/** A tab's label opening its item of a tab set (remark writes `*` for a list that follows another). */
const TAB_LABEL = /^[-*+] (.+):$/;

/**
 * Text with only the wanted languages' items of each tab set (a set without any keeps all of them, and their
 * labels are added to `unmatched`).
 */
function keepLanguages(text: string, tabs: Set<string>, languages: readonly string[], unmatched: Set<string>): string {
  const lines = text.split('\n');
  const labelOf = (line: string) => {
    const label = TAB_LABEL.exec(line)?.[1];
    return label !== undefined && tabs.has(normalize(label)) ? label : undefined;
  };
  const kept: string[] = [];
  for (let at = 0; at < lines.length;) {
    if (labelOf(lines[at]!) === undefined) {
      kept.push(lines[at++]!);
      continue;
    }
    // A tab set: its items until a line outside them (not blank, not indented, not another tab's label).
    const items: {label: string; lines: string[]}[] = [];
    while (at < lines.length) {
      const label = labelOf(lines[at]!);
      if (label !== undefined) items.push({label, lines: [lines[at++]!]});
      else if (lines[at] === '' || lines[at]!.startsWith('  ')) items.at(-1)!.lines.push(lines[at++]!);
      else break;
    }
    // Blank lines after the set belong to what follows it; the items shown are one blank line apart.
    const trailing: string[] = [];
    for (const item of items) while (item.lines.length > 1 && item.lines.at(-1) === '') item.lines.pop();
    for (let line = at - 1; line >= 0 && lines[line] === ''; line--) trailing.push('');
    const matching = items.filter((item) => tabMatches(item.label, languages));
    if (!matching.length) for (const item of items) unmatched.add(item.label);
    const shown = matching.length ? matching : items;
    kept.push(...shown.flatMap((item, index) => (index ? ['', ...item.lines] : item.lines)), ...trailing);
  }
  return kept.join('\n');
}

/** The fence (indent and marker) a text leaves open at its end, if any. */
function openFence(text: string): string | null {
  let open: {indent: string; marker: string} | null = null;
  for (const line of text.split('\n')) {
    const fence = /^(\s*)(`{3,}|~{3,})/.exec(line);
    if (!fence) continue;
    if (!open) open = {indent: fence[1]!, marker: fence[2]!};
    else if (fence[2]!.startsWith(open.marker[0]!) && fence[2]!.length >= open.marker.length) open = null;
  }
  return open && `${open.indent}${open.marker}`;
}

/**
 * A section as Markdown: its own text, then its sub-sections in order while they fit in `budget`
 * characters (the rest are named in `leftOut`); with `languages`, a tab set keeps only those
 * tabs when it has any of them.
 */
export function renderSection(
  page: ParsedPage,
  section: Section,
  languages?: readonly string[],
  budget = Infinity,
): Rendered {
  const unmatched = new Set<string>();
  const slice = (from: number, to: number) => {
    const text = page.lines.slice(from, to).join('\n');
    return languages?.length ? keepLanguages(text, page.tabs, languages, unmatched) : text;
  };
  const full = (node: Section): string => {
    const intro = slice(node.start, node.children[0]?.start ?? node.end).trimEnd();
    return [intro, ...node.children.map(full)].filter(Boolean).join('\n\n');
  };

  let markdown = slice(section.start, section.children[0]?.start ?? section.end).trimEnd();
  let cut = false;
  if (markdown.length > budget) {
    const paragraphs = markdown.split(/\n\n+/);
    markdown = '';
    for (const paragraph of paragraphs) {
      if (markdown.length + paragraph.length + 2 > budget && markdown) break;
      markdown = markdown ? `${markdown}\n\n${paragraph}` : paragraph.slice(0, budget);
    }
    // A cut inside a code block closes it, with its own indent (inside a tab's item) and marker.
    const open = openFence(markdown);
    if (open) markdown += `\n${open}`;
    cut = true;
  }
  const leftOut: Section[] = [];
  for (const child of section.children) {
    const text = full(child);
    if (!cut && leftOut.length === 0 && markdown.length + text.length + 2 <= budget) markdown += `\n\n${text}`;
    else leftOut.push(child);
  }
  return {markdown: markdown.trim(), leftOut, cut, unmatchedTabs: [...unmatched]};
}

/** Headings of a section and its sub-sections that have anchors, depth first. */
export function outline(section: Section): Section[] {
  return section.children.flatMap((child) => (child.anchor ? [child, ...outline(child)] : outline(child)));
}

/** The opening prose of a section (no code, tables or headings), bounded to `limit` characters. */
export function openingText(page: ParsedPage, section: Section, limit = 280): string {
  const prose: string[] = [];
  let fence = false;
  const lines = page.lines.slice(section.start + 1, section.end);
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence || /^\s*(#|\||URL: |!\[|<)/.test(line)) continue;
    // A tab's label opens its item of a tab set; the item's text follows.
    const label = TAB_LABEL.exec(line)?.[1];
    if (label !== undefined && page.tabs.has(normalize(label))) continue;
    if (line.trim() === '') {
      if (prose.join(' ').length >= limit / 2) break;
      continue;
    }
    prose.push(line.replace(/^>\s?/, '').trim());
    if (prose.join(' ').length >= limit) break;
  }
  // A section that is only a table or a list of links: its first lines, without the table's pipes.
  if (prose.length === 0)
    prose.push(
      ...lines
        .filter((line) => /^\|/.test(line) && !/^\|[\s|:-]+\|?$/.test(line))
        .slice(0, 4)
        .map((line) => line.replace(/\s*\|\s*/g, ' ').trim()),
    );
  const text = prose
    .join(' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const sentence = cut.lastIndexOf('. ');
  return sentence > limit / 2 ? cut.slice(0, sentence + 1) : `${cut.slice(0, cut.lastIndexOf(' '))} …`;
}
