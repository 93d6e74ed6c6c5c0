// Runs a page's `run` blocks of one language, in page order, as one bash session, Node script or Python file, as
// pasted (sandbox/route sends the public host to the local sandbox). Marks posted between blocks attribute requests.
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
import {blockName, pageBlocks, ROOT, type Block, type Runner} from './blocks';

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

// Removed when the worker exits, not after a run: a test may read its session's files (rm leaves the linked SDK).
const workDirs = new Set<string>();

/** A scratch directory like a reader's project: the SDK "installed", and the files the page asks them to save. */
function workDirFor(blocks: readonly Block[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'doc-samples-'));
  if (workDirs.size === 0)
    process.once('exit', () => workDirs.forEach((made) => rmSync(made, {recursive: true, force: true})));
  workDirs.add(dir);
  mkdirSync(path.join(dir, 'node_modules', '@acme-connect'), {recursive: true});
  symlinkSync(path.join(ROOT, 'sdk'), path.join(dir, 'node_modules', '@acme-connect', 'sdk'));
  for (const {classification, code} of blocks)
    if ('file' in classification && classification.file)
      writeFileSync(path.join(dir, classification.file), `${code}\n`);
  return dir;
}

const SHIMS = path.join(ROOT, 'sandbox', 'route');

function script(session: Session, label: (index: number) => string, asPasted: boolean): {file: string; text: string} {
  const mark = (index: number) => {
    const markPath = `/__sandbox/mark/${label(index)}`;
    return {
      bash: `command curl -s -o /dev/null -X POST "\${ACME_SANDBOX_ORIGIN}${markPath}"`,
      node: `await fetch(\`\${process.env.ACME_SANDBOX_ORIGIN}${markPath}\`, {method: 'POST'});`,
      python: `__doc_requests.post(f"{__doc_os.environ['ACME_SANDBOX_ORIGIN']}${markPath}", timeout=10)`,
    }[session.runner];
  };
  const prelude = {
    // `set -e` finds a failed block wherever it is; as pasted, only the page's own stops it.
    bash: [...(asPasted ? [] : ['set -e -o pipefail']), `source ${JSON.stringify(path.join(SHIMS, 'curl.bash'))}`],
    node: [],
    python: ['import os as __doc_os', 'import requests as __doc_requests'],
  }[session.runner];
  const blocks = session.blocks.flatMap((block, index) => [mark(index), block.code]);
  const parts = [...prelude, ...blocks, mark(session.blocks.length)];
  const file = {bash: 'session.sh', node: session.typescript ? 'session.ts' : 'session.mjs', python: 'session.py'}[
    session.runner
  ];
  return {file, text: `${parts.join('\n')}\n`};
}

type RunOptions = {
  sandbox: Sandbox;
  env: Record<string, string>;
  node?: string;
  python?: string;
  /** Bash exactly as a reader pastes it: no `set -e` of the harness, so the page's own must stop a failure. */
  asPasted?: boolean;
};

let sessionCount = 0;

/** Runs a session; returns one line per problem, each naming its block, its requests and each block's. */
export async function runSession(session: Session, options: RunOptions) {
  // Every file the page saves (`json file=…` blocks), since the blocks run here may read them.
  const workDir = workDirFor(pageBlocks(path.join(ROOT, session.page)));
  const id = `s${++sessionCount}`;
  const label = (index: number) => `${id}-${index}`;
  const {file, text} = script(session, label, options.asPasted ?? false);
  const logStart = options.sandbox.log.length;
  writeFileSync(path.join(workDir, file), text);
  // Node runs TypeScript transpiled, as session.mjs next to it.
  if (session.typescript) {
    const compilerOptions = {module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022};
    writeFileSync(path.join(workDir, 'session.mjs'), ts.transpileModule(text, {compilerOptions}).outputText);
  }
  const [command, args] = {
    bash: ['bash', [file]],
    python: [options.python ?? 'python3', [file]],
    node: [options.node ?? process.execPath, ['--import', path.join(SHIMS, 'node.mjs'), 'session.mjs']],
  }[session.runner] as [string, string[]];
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: workDir,
    LANG: 'C.UTF-8',
    ACME_SANDBOX_ORIGIN: options.sandbox.origin,
    ACME_SANDBOX_API_ORIGIN: new URL(ENVIRONMENTS.sandbox.apiBase).origin,
    PYTHONPATH: path.join(SHIMS, 'python'),
    PYTHONDONTWRITEBYTECODE: '1',
    ...options.env,
  };
  const {code, output} = await new Promise<{code: number | null; output: string}>((resolve) => {
    const child = spawn(command, args, {cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe']});
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({code: exitCode, output});
    });
  });
  // Each block's requests, by the marks posted between blocks; `current` is the block the session was last in.
  const perBlock = session.blocks.map(() => [] as RequestEntry[]);
  let current = -1;
  const log = requestLog(options.sandbox.log.slice(logStart));
  for (const entry of options.sandbox.log.slice(logStart)) {
    if (entry.kind === 'mark')
      current = entry.label.startsWith(`${id}-`) ? Number(entry.label.slice(id.length + 1)) : -1;
    else perBlock[current]?.push(entry);
  }
  const problems: string[] = [];
  session.blocks.forEach((block, index) => {
    const allowed = block.classification.kind === 'run' ? block.classification.expect : [];
    const say = (problem: string) => problems.push(`${blockName(block)}: ${problem}`);
    for (const request of perBlock[index]!) {
      request.answerProblems?.forEach((problem) => say(`the sandbox's answer broke the contract: ${problem}`));
      const reason = [request.code, request.detail].filter(Boolean).join(': ');
      if (allowed.length > 0 ? !allowed.includes(request.status) : request.status >= 400)
        say(`${request.method} ${request.path} answered ${request.status}${reason ? ` (${reason})` : ''}`);
    }
    const statuses = perBlock[index]!.map((request) => request.status);
    for (const status of allowed.filter((expected) => !statuses.includes(expected)))
      say(`expected a ${status} answer, got ${statuses.join(', ') || 'no request'}`);
  });
  if (code !== 0) {
    const tail = output.trim().split('\n').slice(-8).join('\n');
    const failed = session.blocks[current] ?? session.blocks[0]!;
    problems.push(`${blockName(failed)}: the ${session.runner} session exited with code ${code}:\n${tail}`);
  }
  return {problems, output, log, blockLogs: perBlock};
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
 * A proxy in front of `upstream`, as a buggy server or network could be: `rewrite` changes a request's URL, `answer`
 * the body passed on (`null`: the connection drops once the upstream has done the work); non-framing headers pass on.
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
