/**
 * Runs a page's `run` blocks of one language, in page order, as one bash session, Node script or Python file, as
 * pasted (sandbox/route sends the public host to the local sandbox). A mark posted between blocks attributes each
 * logged request to its block.
 */
import {spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';

import ts from 'typescript';

import {ENVIRONMENTS, LIMITS} from '../../src/constants/api';
import type {Sandbox, SandboxLogEntry} from '../../sandbox/server';
import {credentialsForm, tokenResponse} from '../../sandbox/test-helpers';
import {blockName, ROOT, type Block, type Runner} from './blocks';

export type Session = {page: string; runner: Runner; typescript: boolean; blocks: Block[]};

export const isRun = (block: Block): block is Block & {classification: {kind: 'run'}} =>
  block.classification.kind === 'run';

/** The sessions of one page's blocks: one per language, in page order. */
export function sessionsOf(blocks: readonly Block[]): Session[] {
  const sessions = new Map<Runner, Session>();
  for (const block of blocks.filter(isRun)) {
    const {runner} = block.classification;
    const session = sessions.get(runner) ?? {page: block.page, runner, typescript: false, blocks: []};
    session.blocks.push(block);
    session.typescript ||= block.language === 'ts' || block.language === 'typescript';
    sessions.set(runner, session);
  }
  return [...sessions.values()];
}

// Removed when the worker exits, not after a run: a test reads its session's files afterwards (rm unlinks the SDK's
// symlink and leaves the SDK).
const workDirs = new Set<string>();

/** A scratch directory like a reader's project: the SDK "installed", and the files the page asks them to save. */
export function workDirFor(blocks: readonly Block[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'doc-samples-'));
  if (workDirs.size === 0)
    process.once('exit', () => workDirs.forEach((made) => rmSync(made, {recursive: true, force: true})));
  workDirs.add(dir);
  mkdirSync(path.join(dir, 'node_modules', '@acme-connect'), {recursive: true});
  symlinkSync(path.join(ROOT, 'sdk'), path.join(dir, 'node_modules', '@acme-connect', 'sdk'));
  for (const block of blocks) {
    const file = 'file' in block.classification ? block.classification.file : undefined;
    if (file) {
      writeFileSync(path.join(dir, file), `${block.code}\n`);
    }
  }
  return dir;
}

const SHIMS = path.join(ROOT, 'sandbox', 'route');

function script(session: Session, label: (index: number) => string, asPasted: boolean): {file: string; text: string} {
  const mark = (index: number) => {
    const url = `\${ACME_SANDBOX_ORIGIN}/__sandbox/mark/${label(index)}`;
    switch (session.runner) {
      case 'bash':
        return `command curl -s -o /dev/null -X POST "${url}"`;
      case 'node':
        return `await fetch(\`${url.replace('${ACME_SANDBOX_ORIGIN}', '${process.env.ACME_SANDBOX_ORIGIN}')}\`, {method: 'POST'});`;
      case 'python':
        return `__doc_requests.post(f"${url.replace('${ACME_SANDBOX_ORIGIN}', "{__doc_os.environ['ACME_SANDBOX_ORIGIN']}")}", timeout=10)`;
    }
  };
  const parts: string[] = [];
  if (session.runner === 'bash') {
    // `set -e` finds a failed block wherever it is; as pasted, only the page's own stops it.
    parts.push(...(asPasted ? [] : ['set -e -o pipefail']), `source ${JSON.stringify(path.join(SHIMS, 'curl.bash'))}`);
  } else if (session.runner === 'python') {
    parts.push('import os as __doc_os', 'import requests as __doc_requests');
  }
  session.blocks.forEach((block, index) => parts.push(mark(index), block.code));
  parts.push(mark(session.blocks.length));
  const file = {bash: 'session.sh', node: session.typescript ? 'session.ts' : 'session.mjs', python: 'session.py'}[
    session.runner
  ];
  return {file, text: `${parts.join('\n')}\n`};
}

type RunOptions = {
  sandbox: Sandbox;
  workDir: string;
  env: Record<string, string>;
  node?: string;
  python?: string;
  /** Bash exactly as a reader pastes it: no `set -e` of the harness, so the page's own must stop a failure. */
  asPasted?: boolean;
};

let sessionCount = 0;

/** Runs a session; returns one line per problem, each naming its block, and each block's requests. */
export async function runSession(
  session: Session,
  options: RunOptions,
): Promise<{problems: string[]; output: string; blockLogs: RequestEntry[][]}> {
  const id = `s${++sessionCount}`;
  const label = (index: number) => `${id}-${index}`;
  const {file, text} = script(session, label, options.asPasted ?? false);
  writeFileSync(path.join(options.workDir, file), text);
  let command: string;
  let args: string[];
  if (session.runner === 'bash') {
    [command, args] = ['bash', [file]];
  } else if (session.runner === 'python') {
    [command, args] = [options.python ?? 'python3', [file]];
  } else {
    let runnable = file;
    if (session.typescript) {
      runnable = 'session.mjs';
      const output = ts.transpileModule(text, {
        compilerOptions: {module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022},
      }).outputText;
      writeFileSync(path.join(options.workDir, runnable), output);
    }
    [command, args] = [options.node ?? process.execPath, ['--import', path.join(SHIMS, 'node.mjs'), runnable]];
  }
  const logStart = options.sandbox.log.length;
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.workDir,
    LANG: 'C.UTF-8',
    ACME_SANDBOX_ORIGIN: options.sandbox.origin,
    ACME_SANDBOX_API_ORIGIN: new URL(ENVIRONMENTS.sandbox.apiBase).origin,
    PYTHONPATH: path.join(SHIMS, 'python'),
    PYTHONDONTWRITEBYTECODE: '1',
    ...options.env,
  };
  const {code, output} = await new Promise<{code: number | null; output: string}>((resolve) => {
    const child = spawn(command, args, {cwd: options.workDir, env, stdio: ['ignore', 'pipe', 'pipe']});
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({code: exitCode, output});
    });
  });
  const {perBlock, current} = splitByBlock(session, options.sandbox.log.slice(logStart), label);
  return {problems: attribute(session, perBlock, current, code, output), output, blockLogs: perBlock};
}

/** Each block's requests, by the marks posted between blocks; `current` is the block the session was last in. */
function splitByBlock(session: Session, log: SandboxLogEntry[], label: (index: number) => string) {
  const perBlock = session.blocks.map(() => [] as RequestEntry[]);
  let current = -1;
  for (const entry of log) {
    if (entry.kind === 'mark') {
      const index = session.blocks.findIndex((_block, candidate) => label(candidate) === entry.label);
      current = entry.label === label(session.blocks.length) ? session.blocks.length : index;
    } else if (current >= 0 && current < session.blocks.length) {
      perBlock[current]!.push(entry);
    }
  }
  return {perBlock, current};
}

function attribute(
  session: Session,
  perBlock: RequestEntry[][],
  current: number,
  code: number | null,
  output: string,
): string[] {
  const problems: string[] = [];
  session.blocks.forEach((block, index) => {
    const allowed = block.classification.kind === 'run' ? block.classification.expect : [];
    for (const request of perBlock[index]!) {
      for (const problem of request.answerProblems ?? []) {
        problems.push(`${blockName(block)}: the sandbox's answer broke the contract: ${problem}`);
      }
      const ok = allowed.length > 0 ? allowed.includes(request.status) : request.status < 400;
      if (!ok) {
        const reason = [request.code, request.detail].filter(Boolean).join(': ');
        problems.push(
          `${blockName(block)}: ${request.method} ${request.path} answered ${request.status}${reason ? ` (${reason})` : ''}`,
        );
      }
    }
    for (const status of allowed) {
      if (!perBlock[index]!.some((request) => request.status === status)) {
        problems.push(
          `${blockName(block)}: expected a ${status} answer, got ${perBlock[index]!.map((request) => request.status).join(', ') || 'no request'}`,
        );
      }
    }
  });
  if (code !== 0) {
    const failed = current >= 0 && current < session.blocks.length ? session.blocks[current]! : session.blocks[0]!;
    const tail = output.trim().split('\n').slice(-8).join('\n');
    problems.push(`${blockName(failed)}: the ${session.runner} session exited with code ${code}:\n${tail}`);
  }
  return problems;
}

/** Python 3 with requests: Debian's (python3-requests) first, then whatever `python3` is. */
export async function pythonWithRequests(): Promise<string> {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    const ok = await new Promise<boolean>((resolve) =>
      spawn(candidate, ['-c', 'import requests'], {stdio: 'ignore'})
        .on('error', () => resolve(false))
        .on('close', (exitCode) => resolve(exitCode === 0)),
    );
    if (ok) return candidate;
  }
  throw new Error("No python3 with requests: install Debian's python3-requests (.ci/run does).");
}

export type RequestEntry = Extract<SandboxLogEntry, {kind: 'request'}>;
export const requestLog = (log: SandboxLogEntry[]) =>
  log.filter((entry): entry is RequestEntry => entry.kind === 'request');

/** Spends the minute's token requests of `credential`, as other clients of it could; answers their statuses. */
export async function useUpTokenRequests(origin: string, credential: {clientId: string; clientSecret: string}) {
  const statuses: number[] = [];
  for (let spent = 0; spent < LIMITS.tokenRequestsPerMinute; spent++) {
    statuses.push((await tokenResponse(origin, credentialsForm({...credential, scopes: []}))).status);
  }
  return statuses;
}

type ProxiedAnswer = {
  method: string;
  url: URL;
  headers: Record<string, string>;
  status: number;
  answerHeaders: Headers;
  text: string;
};

/**
 * A proxy in front of `upstream`, as a buggy server or network could be: `rewrite` changes a request's URL,
 * `answer` the body passed on (`null`: the connection drops once the upstream has done the work).
 * Every header but the framing ones passes on both ways.
 */
export async function startProxy(
  upstream: string,
  {
    rewrite = () => {},
    answer = ({text}) => text,
  }: {rewrite?: (url: URL) => void; answer?: (seen: ProxiedAnswer) => string | null},
) {
  const server = http.createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const method = request.method ?? 'GET';
      const url = new URL(request.url ?? '/', upstream);
      rewrite(url);
      const headers = Object.fromEntries(
        Object.entries(request.headers).flatMap(([name, value]) =>
          ['host', 'connection', 'content-length'].includes(name) || value === undefined ? [] : [[name, String(value)]],
        ),
      );
      const body = ['GET', 'HEAD'].includes(method) ? undefined : Buffer.concat(chunks);
      const upstreamAnswer = await fetch(url, {method, headers, body});
      const {status, headers: answerHeaders} = upstreamAnswer;
      const text = answer({method, url, headers, status, answerHeaders, text: await upstreamAnswer.text()});
      if (text === null) return void request.socket.destroy();
      const passed: [string, string][] = [];
      upstreamAnswer.headers.forEach((value, name) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
          passed.push([name, value]);
      });
      response.writeHead(upstreamAnswer.status, Object.fromEntries(passed));
      response.end(text);
    })().catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
