/**
 * Reports site URLs in the served files of a build that name no page or an anchor the page lacks.
 * Reads only the build directory, so it runs on a fixture too; a URL resolves as deploy/nginx.conf serves it.
 */
import {readdir, readFile} from 'node:fs/promises';
import path from 'node:path';

export type Problem = {
  file: string;
  /** 1-based line of its first occurrence; absent for HTML, which is minified onto one line. */
  line?: number;
  url: string;
  kind: 'no-page' | 'no-anchor';
  message: string;
};

export type CheckOptions = {
  buildDir: string;
  siteUrl: string;
  baseUrl?: string;
  /** Which files to check (all by default); pages and anchors still resolve over the whole build. */
  files?: (file: string) => boolean;
  /** Files another plugin's `postBuild` writes at the same time, counted as served. */
  alsoServed?: Iterable<string>;
};

const CHECKED_EXTENSIONS = new Set(['.html', '.md', '.txt', '.yaml', '.yml', '.json']);
const MARKDOWN_EXTENSIONS = new Set(['.md', '.txt']);

async function listBuild(buildDir: string): Promise<{checked: string[]; served: Set<string>}> {
  const entries = await readdir(buildDir, {recursive: true, withFileTypes: true});
  const served = new Set<string>();
  const checked: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) {
      continue;
    }
    const file = path.relative(buildDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (file.split('/').some((segment) => segment.startsWith('.'))) {
      continue;
    }
    served.add(file);
    const skipped = file.startsWith('assets/') || /^search-index[^/]*\.json$/.test(file);
    if (!skipped && CHECKED_EXTENSIONS.has(path.extname(file).toLowerCase())) {
      checked.push(file);
    }
  }
  checked.sort();
  return {checked, served};
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The host must end there (not `docs.example.community`); a backslash ends the URL (JSON escapes). */
function absoluteUrlPattern(origin: URL): RegExp {
  const host = escapeRegExp(origin.host);
  return new RegExp(`https?://${host}(?![A-Za-z0-9-]|\\.[A-Za-z0-9]|:\\d)[^\\s"'<>\`\\\\()\\[\\]{}|^]*`, 'gi');
}

function trimPunctuation(url: string): string {
  return url.replace(/[.,;:!?*]+$/, '');
}

type Found = {url: string; offset: number};

function findAbsolute(text: string, pattern: RegExp): Found[] {
  return [...text.matchAll(pattern)].map((match) => ({url: trimPunctuation(match[0]), offset: match.index}));
}

/** Blanks code with spaces, keeping newlines, so offsets and line numbers hold. */
function maskMarkdownCode(markdown: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  return (
    markdown
      .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm, blank)
      // A code span ends at the same run of backticks, within its paragraph.
      .replace(/(`+)(?!`)(?:[^\n]|\n(?![ \t]*\n))*?[^`\n]\1(?!`)/g, blank)
  );
}

function findRelativeMarkdown(markdown: string): Found[] {
  const text = maskMarkdownCode(markdown);
  const patterns = [
    /\]\(\s*<?(\/(?!\/)[^\s)>]*)/g,
    /^ {0,3}\[[^\]\n]+\]:[ \t]*<?(\/(?!\/)[^\s>]*)/gm,
    /\s(?:href|src)\s*=\s*["']?(\/(?!\/)[^\s"'>]*)/gi,
  ];
  return patterns.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => ({
      url: match[1]!,
      offset: match.index + match[0].length - match[1]!.length,
    })),
  );
}

const ENTITIES: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0'};

function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));/gi,
    (entity, decimal?: string, hex?: string, name?: string) => {
      if (decimal !== undefined || hex !== undefined) {
        return String.fromCodePoint(decimal !== undefined ? Number(decimal) : Number.parseInt(hex!, 16));
      }
      return ENTITIES[name!.toLowerCase()] ?? entity;
    },
  );
}

const TAG = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
// Tags inside which a URL can be split by highlighting (Prism wraps each token in a <span>).
const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'code',
  'em',
  'i',
  'kbd',
  'mark',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'u',
  'wbr',
]);

type ParsedHtml = {ids: Set<string>; found: Found[]};

function parseHtml(html: string, pattern: RegExp): ParsedHtml {
  const ids = new Set<string>();
  const found: Found[] = [];
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, ' ');
  // Script and style bodies are not markup: searched for URLs as they are, then left out.
  const scriptBody = /(<(script|style)\b[^>]*>)([\s\S]*?)<\/\2\s*>/gi;
  for (const match of withoutComments.matchAll(scriptBody)) {
    found.push(...findAbsolute(match[3]!, pattern));
  }
  const markup = withoutComments.replace(scriptBody, '$1');

  let text = '';
  let last = 0;
  for (const tag of markup.matchAll(TAG)) {
    text += markup.slice(last, tag.index);
    last = tag.index + tag[0].length;
    const name = tag[2]!.toLowerCase();
    text += INLINE_TAGS.has(name) ? '' : '\n';
    if (tag[1]) {
      continue;
    }
    for (const attribute of tag[3]!.matchAll(ATTRIBUTE)) {
      const attributeName = attribute[1]!.toLowerCase();
      const raw = attribute[2] ?? attribute[3] ?? attribute[4];
      if (raw === undefined) {
        continue;
      }
      const value = decodeEntities(raw);
      if (attributeName === 'id' || (attributeName === 'name' && name === 'a')) {
        ids.add(value);
      }
      found.push(...findAbsolute(value, pattern));
    }
  }
  text += markup.slice(last);
  found.push(...findAbsolute(decodeEntities(text), pattern));
  return {ids, found};
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
  }
  return line;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

export function resolveSitePath(sitePath: string, served: ReadonlySet<string>, baseUrl = '/'): string | undefined {
  if (!sitePath.startsWith(baseUrl) && `${sitePath}/` !== baseUrl) {
    return undefined;
  }
  const decoded = safeDecode(sitePath.slice(baseUrl.length));
  if (decoded === undefined) {
    return undefined;
  }
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment.startsWith('.'))) {
    return undefined;
  }
  const file = segments.join('/');
  const candidates = file === '' ? ['index.html'] : [file, `${file}.html`, `${file}/index.html`];
  return candidates.find((candidate) => served.has(candidate));
}

/** Every site URL in the served files of `buildDir` (those `files` selects) that names no page, or an anchor its page lacks. */
export async function checkBuildUrls({
  buildDir,
  siteUrl,
  baseUrl = '/',
  files,
  alsoServed = [],
}: CheckOptions): Promise<Problem[]> {
  const origin = new URL(siteUrl);
  const pattern = absoluteUrlPattern(origin);
  const build = await listBuild(buildDir);
  const checked = files ? build.checked.filter(files) : build.checked;
  const served = new Set([...build.served, ...alsoServed]);

  const parsedPages = new Map<string, Promise<ParsedHtml>>();
  const parsePage = (file: string, html?: string): Promise<ParsedHtml> => {
    let parsed = parsedPages.get(file);
    if (!parsed) {
      parsed = (html !== undefined ? Promise.resolve(html) : readFile(path.join(buildDir, file), 'utf8')).then((text) =>
        parseHtml(text, pattern),
      );
      parsedPages.set(file, parsed);
    }
    return parsed;
  };

  const problemOf = async (url: string): Promise<Pick<Problem, 'kind' | 'message'> | undefined> => {
    const parsed = new URL(url, origin);
    const target = resolveSitePath(parsed.pathname, served, baseUrl);
    if (target === undefined) {
      return {kind: 'no-page', message: `no such page ${parsed.pathname}`};
    }
    const fragment = parsed.hash.slice(1);
    if (fragment === '' || !target.endsWith('.html')) {
      return undefined;
    }
    const anchor = safeDecode(fragment) ?? fragment;
    if ((await parsePage(target)).ids.has(anchor)) {
      return undefined;
    }
    return {kind: 'no-anchor', message: `no such anchor #${anchor} on ${parsed.pathname} (${target})`};
  };

  const perFile = await Promise.all(
    checked.map(async (file): Promise<Problem[]> => {
      const text = await readFile(path.join(buildDir, file), 'utf8');
      const extension = path.extname(file).toLowerCase();
      const isHtml = extension === '.html';
      const found = isHtml
        ? (await parsePage(file, text)).found
        : [...findAbsolute(text, pattern), ...(MARKDOWN_EXTENSIONS.has(extension) ? findRelativeMarkdown(text) : [])];
      // One report per URL and file, at its first occurrence.
      const firstOffset = new Map<string, number>();
      for (const {url, offset} of found) {
        firstOffset.set(url, Math.min(offset, firstOffset.get(url) ?? offset));
      }
      const problems: Problem[] = [];
      for (const [url, offset] of firstOffset) {
        const problem = await problemOf(url);
        if (problem) {
          problems.push({file, ...(isHtml ? {} : {line: lineAt(text, offset)}), url, ...problem});
        }
      }
      return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || a.url.localeCompare(b.url));
    }),
  );
  return perFile.flat();
}

/** The problems as lines for the build output: `file:line: URL — what is wrong`. */
export function formatProblems(
  problems: readonly Problem[],
  fileLabel: (file: string) => string = (file) => file,
): string {
  return problems
    .map(
      (problem) =>
        `- ${fileLabel(problem.file)}${problem.line ? `:${problem.line}` : ''}: ${problem.url} — ${problem.message}`,
    )
    .join('\n');
}

/** Each plugin checks the files it writes, so a broken URL fails the build naming its source. */
export async function assertSiteUrlsResolve({source, ...options}: CheckOptions & {source: string}): Promise<void> {
  const problems = await checkBuildUrls(options);
  if (problems.length > 0) {
    const count = problems.length === 1 ? '1 URL' : `${problems.length} URLs`;
    throw new Error(
      `[${source}] ${count} of ${options.siteUrl} in the built files point at no page or anchor of the build (plugins/docs-urls):\n` +
        formatProblems(problems, (file) => path.relative(process.cwd(), path.join(options.buildDir, file))),
    );
  }
}
