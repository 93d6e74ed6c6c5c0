/**
 * Helpers for the API-sample checks: the operations of the OpenAPI document, and the curl
 * samples, JSON code blocks and endpoint paths found in docs/ (with constants resolved).
 */
import {readFileSync, readdirSync, statSync} from 'node:fs';
import path from 'node:path';

import {SITE} from '../../src/constants/site';
import * as api from '../../src/constants/api';
import {BRAND} from '../../src/constants/site';

export const ROOT = path.resolve(__dirname, '..', '..');
/** The docs to check; API_DOCS_DIR points the checks at another copy (e.g. a branch being rewritten). */
export const DOCS_DIR = process.env.API_DOCS_DIR ? path.resolve(process.env.API_DOCS_DIR) : path.join(ROOT, 'docs');
export {BUILD_DIR} from './docs';

/** Where a sample was found, for failure messages: `docs/x.mdx:12`. */
export type Located = {file: string; line: number; text: string};

/** The API origins a sample may call (sandbox and live). */
export const API_ORIGINS = Object.values(api.ENVIRONMENTS).map((environment) => new URL(environment.apiBase).origin);

export function listDocFiles(dir: string = DOCS_DIR): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      return listDocFiles(file);
    }
    return /\.mdx?$/.test(name) ? [file] : [];
  });
}

const CONSTANTS: Record<string, unknown> = {...api, BRAND, SITE};

function lookup(name: string): string | undefined {
  let value: unknown = CONSTANTS;
  for (const key of name.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** Replaces `${NAME.path}` (template literals) and `{NAME.path}` (MDX expressions) naming a constant. */
export function resolveConstants(text: string): string {
  return text
    .replace(/\$\{([A-Z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}/g, (match, name: string) => lookup(name) ?? match)
    .replace(/\{([A-Z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}/g, (match, name: string) => lookup(name) ?? match);
}

function relative(file: string): string {
  return path.relative(ROOT, file);
}

/** Every line of every doc, constants resolved. */
export function docLines(): Located[] {
  return listDocFiles().flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((text, index) => ({file: relative(file), line: index + 1, text: resolveConstants(text)})),
  );
}

/** Splits a shell command into words (single/double quotes and backslash escapes). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index]!;
    if (quote) {
      if (char === quote) {
        quote = undefined;
      } else if (char === '\\' && quote === '"' && /["\\$`]/.test(command[index + 1] ?? '')) {
        word += command[++index];
      } else {
        word += char;
      }
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      word += command[++index] ?? '';
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) {
        words.push(word);
      }
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) {
    words.push(word);
  }
  return words;
}

export type CurlSample = Located & {method: string; url: string};

const DATA_FLAGS = new Set([
  '-d',
  '--data',
  '--data-raw',
  '--data-binary',
  '--data-urlencode',
  '--json',
  '-F',
  '--form',
]);

/** Parses one curl command line (continuations already joined). */
export function parseCurl(command: string): {method: string; url: string | undefined} {
  const words = shellWords(command.replace(/\\\n/g, ' '));
  let method: string | undefined;
  let url: string | undefined;
  let hasData = false;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index]!;
    if (word === '-X' || word === '--request') {
      method = words[++index];
    } else if (/^-X[A-Z]+$/.test(word)) {
      method = word.slice(2);
    } else if (word === '--url') {
      url = words[++index];
    } else if (
      DATA_FLAGS.has(word) ||
      [...DATA_FLAGS].some((flag) => flag.startsWith('--') && word.startsWith(`${flag}=`))
    ) {
      hasData = true;
    } else if (/^https?:\/\//.test(word) && !url) {
      url = word;
    }
  }
  return {method: (method ?? (hasData ? 'POST' : 'GET')).toUpperCase(), url};
}

/** Every curl command in the docs: lines that start with `curl` (optionally after `$ `), with their continuations. */
export function curlSamples(): CurlSample[] {
  const samples: CurlSample[] = [];
  for (const file of listDocFiles()) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (!/^\s*(?:\$\s+|\{?`)?curl\s/.test(line)) {
        return;
      }
      let command = line.replace(/^\s*(?:\$\s+|\{?`)?/, '');
      let next = index;
      while (/\\\s*$/.test(lines[next]!) && next + 1 < lines.length) {
        next += 1;
        command = `${command.replace(/\\\s*$/, '')} ${lines[next]!.trim()}`;
      }
      const resolved = resolveConstants(command.replace(/`\}?\s*$/, ''));
      const {method, url} = parseCurl(resolved);
      samples.push({file: relative(file), line: index + 1, text: resolved, method, url: url ?? ''});
    });
  }
  return samples;
}

/** An API path written in the docs, e.g. `/v1/esims/{iccid}/usage` or the path of an API URL. */
export function endpointMentions(): Located[] {
  const mentions: Located[] = [];
  const pattern = /(https?:\/\/[^\s"'`)<>\]|]+)|(?<![\w/.:@-])(\/(?:v\d+|oauth)\/[^\s"'`)<>\]|]*)/g;
  for (const located of docLines()) {
    for (const match of located.text.matchAll(pattern)) {
      let candidate: string;
      if (match[1]) {
        const url = safeUrl(match[1]);
        if (!url || !API_ORIGINS.includes(url.origin)) {
          continue; // Not the API (widget, dashboard, partner sites …).
        }
        candidate = url.pathname;
      } else {
        candidate = match[2]!.split(/[?#]/)[0]!;
      }
      candidate = candidate.replace(/[.,;:!…]+$/, '');
      // The API base itself (`https://api.example.com/v1`) or a bare origin is not an endpoint.
      if (/^\/(?:v\d+\/?)?$/.test(candidate)) {
        continue;
      }
      mentions.push({...located, text: candidate});
    }
  }
  return mentions;
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text.replace(/[.,;:!…]+$/, ''));
  } catch {
    return undefined;
  }
}
