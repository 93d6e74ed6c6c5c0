// The docs' MCP server (mcp/), driven by the official SDK's own client over stdio and Streamable HTTP, against the
// e2e build; expectations come from the build and the contract. Node only; its ranking is the box's (search.spec.ts).
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import type {Server} from 'node:http';
import {connect, type AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';

import {expect, test} from '@playwright/test';
import {unified} from 'unified';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';

import {listOperations, operationFacts, operationScopes, resolveRef} from '../lib/contract/openapi';
import {webhookEventExamples} from '../lib/contract/webhooks';
import {CURRENT_INDEX_FILE, MANIFEST_FILE, PARTS_DIR} from '../lib/search/index-parts';
import {twinPath} from '../lib/twin-path';
import {BuiltDocs, type PageAnswer, type SearchHit} from '../mcp/docs';
import {allowedOriginsFromEnv, MAX_BODY_BYTES, startHttpServer, type HttpOptions} from '../mcp/http';
import type {OperationDetail, SchemaDetail} from '../mcp/operations';
import {CHARS_PER_TOKEN, DEFAULT_PAGE_TOKENS} from '../mcp/sections';
import {LIMITS} from '../mcp/server';
import {errorCodesOf, errorRule, RETRY_POLICIES} from '../src/constants/behaviour';
import {MCP, SITE} from '../src/constants/site';
import {BUILD_DIR as DEFAULT_BUILD_DIR, docPages, htmlFile} from './support/docs';
import {rawExchange, startSites, type RawExchange} from './support/nginx';
import {freePort} from '../lib/ports';

const ROOT = path.resolve(__dirname, '..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const STDIO = path.join(ROOT, 'mcp/stdio.ts');
/** The build under test: `build/`, or another one (DOCS_BUILD_DIR) so a change can be tested beside others' builds. */
const BUILD_DIR = process.env.DOCS_BUILD_DIR ? path.resolve(process.env.DOCS_BUILD_DIR) : DEFAULT_BUILD_DIR;
const TOOLS = ['get_operation', 'get_page', 'get_schema', 'list_operations', 'search_docs'];
const rpc = (method: string, params?: object) => JSON.stringify({jsonrpc: '2.0', id: 1, method, params});
const LIST_TOOLS = rpc('tools/list');

const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({name, arguments: args})) as CallToolResult;
const answerOf = <T>(result: CallToolResult) => result.structuredContent as T;
const searchResults = (result: CallToolResult) => answerOf<{results: SearchHit[]}>(result).results;
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A client over Streamable HTTP to `url`; without one, over stdio to a server process of its own. */
async function connectClient(url?: string): Promise<Client> {
  const client = new Client({name: 'docs-test', version: '1.0.0'});
  const stdio = () =>
    new StdioClientTransport({command: TSX, args: [STDIO, '--build', BUILD_DIR], cwd: ROOT, stderr: 'pipe'});
  await client.connect(url ? new StreamableHTTPClientTransport(new URL(url)) : stdio());
  return client;
}

/** Calls a tool that must answer with an error saying `message`; returns its text. */
async function toolError(client: Client, name: string, args: Record<string, unknown>, message: string | RegExp) {
  const answer = await call(client, name, args);
  expect(answer.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
  expect(text(answer)).toMatch(message);
  return text(answer);
}

/** A raw POST to /mcp with extra header lines: what fetch will not send (Upgrade, Connection, chunked bodies). */
const rawPost = (url: string, body: string | Buffer[], extra = '') => {
  const length = typeof body === 'string' ? `Content-Length: ${Buffer.byteLength(body)}` : 'Transfer-Encoding: chunked';
  const type = 'Content-Type: application/json\r\nAccept: application/json, text/event-stream';
  const head = `POST ${new URL(url).pathname} HTTP/1.1\r\nHost: localhost\r\n${type}\r\n${length}\r\n${extra}Connection: close\r\n\r\n`;
  return rawExchange(url, [head, body].flat());
};
/** tools/list from a page of `origin` (none: a client that sends no Origin). */
const fromOrigin = (url: string, origin?: string) => rawPost(url, LIST_TOOLS, origin ? `Origin: ${origin}\r\n` : '');
const header = (answer: RawExchange, name: string) => Object.fromEntries(answer.headers)[name];
const expectUnstored = (answer: RawExchange, status: number, label: string) => {
  expect(answer.status, `${label}\n${answer.head}`).toBe(status);
  expect(header(answer, 'cache-control'), label).toBe('no-store');
};
const expectRefusal = (answer: RawExchange, status: number, code: number, label: string) => {
  expectUnstored(answer, status, label);
  expect(JSON.parse(answer.body), label).toMatchObject({jsonrpc: '2.0', error: {code}, id: null});
};

/** Text as compared: no Markdown or entity syntax, one space, lower case. */
const flat = (value: string) =>
  value
    .replace(/&amp;/g, '&')
    .replace(/&(lt|gt|quot|#0?39);/g, (_entity, name: string) => ({lt: '<', gt: '>', quot: '"'})[name] ?? "'")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*\\\u200b]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
const builtHtml = (route: string) => readFileSync(htmlFile(route, BUILD_DIR), 'utf8');
/** The h2–h3 headings of a built page, in order, with their ids (the HTML, not the server's parser). */
const builtHeadings = (route: string) =>
  [...builtHtml(route).matchAll(/<h([23])\b[^>]*\bid=("?)([^"\s>]+)\2[^>]*>([\s\S]*?)<\/h\1>/g)].map((match) => ({
    depth: Number(match[1]),
    id: match[3]!,
    text: flat(match[4]!.replace(/<a[^>]*hash-link[\s\S]*?<\/a>/g, '').replace(/<[^>]+>/g, '')),
  }));

test.describe('MCP server', {tag: '@viewport-independent'}, () => {
  const docs = new BuiltDocs(BUILD_DIR);
  let http: Server;
  let endpoint: string;
  /** One HTTP client for the tests that only call tools. */
  let client: Client;

  test.beforeAll(async () => {
    http = await startHttpServer(docs, 0);
    endpoint = urlOf(http);
    client = await connectClient(endpoint);
  });
  test.afterAll(async () => {
    await client.close();
    await close(http);
  });
  /** What a test started, stopped once it ends (last started, first stopped), whether it passed or not. */
  const cleanups: (() => unknown)[] = [];
  const defer = (cleanup: () => unknown) => cleanups.unshift(cleanup);
  test.afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  /** Another server over `served`, stopped after the test; its /mcp URL. */
  const serve = async (served: BuiltDocs, options?: HttpOptions) => {
    const server = await startHttpServer(served, 0, options);
    defer(() => close(server));
    return urlOf(server);
  };

  /** tools/list, the instructions and list_operations: the same tools over each transport. */
  const expectTools = async (session: Client) => {
    const {tools} = await session.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(
        JSON.stringify([tool.inputSchema, tool.outputSchema]),
        `${tool.name}: self-contained schemas`,
      ).not.toContain('$ref');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    }
    const instructions = session.getInstructions() ?? '';
    for (const tool of TOOLS.filter((name) => name !== 'list_operations')) expect(instructions).toContain(tool);
    expect(instructions).toMatch(/does not offer/);
    type Row = {method: string; path: string};
    const {operations} = answerOf<{operations: Row[]}>(await call(session, 'list_operations'));
    const key = ({method, path: apiPath}: Row) => `${method} ${apiPath}`;
    expect(operations.map(key).sort()).toEqual(listOperations(docs.document).map(key).sort());
  };

  // Both transports build their server with createDocsServer (mcp/server.ts): the whole battery over stdio, the command
  // a partner runs; over HTTP, the tools' metadata and the instructions below, and each tool in the tests after it.
  test(`over stdio: the tools (read-only, with schemas), how to combine them, each one's answer, and clear errors that leave the server up`, async () => {
    const session = await connectClient();
    defer(() => session.close());
    await expectTools(session);

    // search_docs: the box's ranking, with absolute URLs into the site.
    const hits = searchResults(await call(session, 'search_docs', {query: 'create an order', limit: 3}));
    expect(hits).toEqual(await docs.search('create an order', 3));
    expect(hits.length).toBe(3);
    expect(new Set(hits.map((hit) => hit.url)).size, 'one hit per URL').toBe(hits.length);
    for (const hit of hits) {
      expect(hit.url.startsWith(`${SITE.url}/`)).toBe(true);
      expect(hit.text.length, hit.url).toBeLessThanOrEqual(300);
      if (hit.url.includes('#')) expect(hit.section, hit.url).toBeTruthy();
    }

    // get_page: every page of the sitemap by canonical URL and by path.
    for (const page of docPages(BUILD_DIR)) {
      const byUrl = await call(session, 'get_page', {url: `${SITE.url}${page.path}`});
      expect(byUrl.isError, page.path).toBeFalsy();
      expect(text(byUrl).startsWith(`# ${page.title}\n`), page.path).toBe(true);
    }
    expect(text(await call(session, 'get_page', {url: '/basics/sdk'}))).toContain(`URL: ${SITE.url}/basics/sdk`);

    // get_operation: by id and by "METHOD /path".
    const first = listOperations(docs.document).find(({path: apiPath}) => apiPath.startsWith('/v1/'))!;
    for (const id of [first.operation.operationId, `${first.method} ${first.path}`]) {
      const operation = answerOf<OperationDetail>(await call(session, 'get_operation', {operation: id}));
      expect(operation.operationId, id).toBe(first.operation.operationId);
      expect(operation.scopes.length, id).toBeGreaterThan(0);
      expect(operation.responses.length, id).toBeGreaterThan(0);
      expect(operation.documentedAt.length, `${id} is documented on a page`).toBeGreaterThan(0);
    }

    // Unknown page and operation: a clear tool error; a near miss names the nearest page and section.
    await toolError(session, 'get_page', {url: '/no/such/page'}, /No documentation page at "\/no\/such\/page"/);
    const [route, anchor] = ['/getting-started/main-concepts', '#rate-limits'];
    const nearMiss = `Did you mean: ${SITE.url}${route}${anchor}`;
    await toolError(session, 'get_page', {url: `${route.slice(0, -1)}${anchor}`}, nearMiss);
    const noOperation = /No API operation "GET \/v1\/nope"\. Did you mean: /;
    await toolError(session, 'get_operation', {operation: 'GET /v1/nope'}, noOperation);

    // Oversized and malformed input: refused with a message, and the server answers the next call.
    for (const [name, args] of [
      ['search_docs', {query: 'x'.repeat(LIMITS.query + 1)}],
      ['search_docs', {query: 42}],
      ['search_docs', {query: 'esim', limit: 1000}],
      ['get_page', {}],
      ['get_operation', {operation: 'x'.repeat(LIMITS.operation + 1)}],
    ] as const) {
      const refused = await call(session, name, args).then(text, (error: Error) => error.message);
      expect(refused, `${name} ${JSON.stringify(args).slice(0, 60)}`).toMatch(
        /invalid|too_big|expected|required|must/i,
      );
    }
    expect(searchResults(await call(session, 'search_docs', {query: 'refund'})).length).toBeGreaterThan(0);
    // Odd queries never fail: punctuation only, emoji, Lunr syntax.
    for (const query of ['???', '🙂🙂', 'title:~2 +-*', '<script>'])
      expect((await call(session, 'search_docs', {query})).isError, query).toBeFalsy();
  });

  test('over HTTP: a body that is not JSON, a batch, a huge body, an upgrade, another method or path: a JSON-RPC error the client reads, never stored, and the server stays up; a trickling body gets 408', async () => {
    expectRefusal(await rawPost(endpoint, '{"jsonrpc": '), 400, -32700, 'not JSON');
    // MCP's 2025-06-18 revision has no batches.
    const batch = await rawPost(endpoint, `[${LIST_TOOLS},${LIST_TOOLS}]`);
    expectRefusal(batch, 400, -32600, 'a batch');
    expect(JSON.parse(batch.body).error.message).toMatch(/batch/i);
    // Over the limit as declared (Content-Length), and as counted (a chunked body with no length): the 413 is read.
    const pad = 'x'.repeat(MAX_BODY_BYTES);
    expectRefusal(await rawPost(endpoint, rpc('tools/list', {pad})), 413, -32600, 'too large, declared');
    const chunk = (text: string) => Buffer.from(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
    const chunks = [chunk(`{"pad":"${pad.slice(MAX_BODY_BYTES / 2)}`), chunk(`${pad}"}`), Buffer.from('0\r\n\r\n')];
    expectRefusal(await rawPost(endpoint, chunks), 413, -32600, 'too large, counted');
    for (const upgrade of [
      'Upgrade: websocket\r\nConnection: Upgrade\r\n',
      'Upgrade: 0\r\n',
      'Upgrade:\r\n',
      'Upgrade: h2c\r\n',
      'Connection: keep-alive, Upgrade\r\n',
    ])
      expectRefusal(await rawPost(endpoint, LIST_TOOLS, upgrade), 400, -32600, upgrade);
    const bare = (method: string) =>
      rawExchange(endpoint, `${method} /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    const get = await bare('GET');
    expectRefusal(get, 405, -32000, 'GET');
    expect(header(get, 'allow')).toBe('POST');
    expectRefusal(await rawPost(endpoint.replace(/\/mcp$/, '/other'), LIST_TOOLS), 404, -32000, 'another path');
    // What Node refuses before any handler runs: an unknown method, a header too large.
    expectUnstored(await bare('FOO'), 400, 'an unknown method');
    const flood = `X-Flood: ${'x'.repeat(32 * 1024)}\r\n`;
    expectUnstored(await rawPost(endpoint, LIST_TOOLS, flood), 431, 'a header too large');
    expectUnstored(await rawPost(endpoint, LIST_TOOLS), 200, 'tools/list');
    // Ten bytes of the hundred announced, and no more: only the server's bound ends the request (408).
    const trickled = 'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{"jsonrpc"';
    const cut = await rawExchange(await serve(docs, {requestTimeoutMs: 300}), trickled);
    expect(cut.head, 'a trickled body is answered in HTTP/1.1').toMatch(/^HTTP\/1\.1 408 /);
    expectUnstored(cut, 408, 'a trickled body');
    const fresh = await connectClient(endpoint);
    await expectTools(fresh);
    await fresh.close();
  });

  test("over HTTP: pages of other origins are refused (403); the site's, loopback and clients without an Origin are not; the list is configurable", async () => {
    const site = new URL(SITE.url);
    const lookalikes = [`${site.origin}.evil.example`, `http://${site.host}`, `${site.origin}:8443`];
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.evil.example', ...lookalikes])
      expectRefusal(await fromOrigin(endpoint, origin), 403, -32000, origin);
    const allowed = [site.origin, 'http://127.0.0.1:3000', 'http://localhost:8080', 'http://[::1]:5173', undefined];
    for (const origin of allowed) expect((await fromOrigin(endpoint, origin)).status, origin ?? 'no Origin').toBe(200);
    // Written as a URL (a trailing slash) it is still that origin; what is no origin, or no list, fails at start.
    const preview = await serve(docs, {allowedOrigins: ['https://preview.example/']});
    expect((await fromOrigin(preview, 'https://preview.example')).status).toBe(200);
    expectRefusal(await fromOrigin(preview, site.origin), 403, -32000, 'the default, replaced');
    expect(() => startHttpServer(docs, 0, {allowedOrigins: ['preview.example']})).toThrow(/not an origin/);
    const webview = await serve(docs, {allowedOrigins: ['vscode-webview://abc123']});
    expect((await fromOrigin(webview, 'vscode-webview://abc123')).status, 'an editor webview').toBe(200);
    expect(allowedOriginsFromEnv(' https://a.example, ,https://b.example ')).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(allowedOriginsFromEnv(undefined)).toBeUndefined();
    expect(() => allowedOriginsFromEnv(' , ')).toThrow(/names no origin/);
  });

  test('`npm run mcp:http`: --allow-origin, else DOCS_MCP_ALLOWED_ORIGINS, replaces the default origins', async () => {
    /** Runs the CLI on a free port and, once it says where it listens, checks the status each origin gets. */
    const expectStatuses = async (args: string[], expected: Record<string, number>) => {
      const port = await freePort();
      const env = {...process.env, DOCS_MCP_ALLOWED_ORIGINS: 'https://env.example, https://other.example'};
      const cli = [path.join(ROOT, 'mcp/http.ts'), '--port', String(port), '--build', BUILD_DIR, ...args];
      const child = spawn(TSX, cli, {cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit']});
      const exited = once(child, 'exit');
      defer(() => child.kill() && exited);
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk).includes('MCP server on') && resolve());
        child.once('exit', (code) => reject(new Error(`mcp:http exited (${code}) before listening: ${out}`)));
      });
      const statuses: Record<string, number> = {};
      for (const origin of Object.keys(expected))
        statuses[origin] = (await fromOrigin(`http://127.0.0.1:${port}/mcp`, origin)).status;
      expect(statuses, args.join(' ') || 'DOCS_MCP_ALLOWED_ORIGINS').toEqual(expected);
    };
    const site = new URL(SITE.url).origin;
    const byFlag = {'https://flag.example': 200, 'https://env.example': 403, [site]: 403};
    const byEnv = {'https://env.example': 200, 'https://other.example': 200, [site]: 403, 'http://localhost:3000': 200};
    await Promise.all([expectStatuses(['--allow-origin', 'https://flag.example'], byFlag), expectStatuses([], byEnv)]);
  });

  test('over HTTP: a call whose client goes away is abandoned: its search is aborted and stops at its next step', async () => {
    let entered!: (signal: AbortSignal) => void;
    const inSearch = new Promise<AbortSignal>((resolve) => (entered = resolve));
    let searched: Promise<SearchHit[]> | undefined;
    /** Holds each search until its signal aborts, then runs it as the server would have. */
    class HeldDocs extends BuiltDocs {
      override search(input: string, limit?: number, signal?: AbortSignal): Promise<SearchHit[]> {
        entered(signal!);
        return (searched = once(signal!, 'abort').then(() => super.search(input, limit, signal)));
      }
    }
    const client = new AbortController();
    void fetch(await serve(new HeldDocs(BUILD_DIR)), {
      method: 'POST',
      headers: {'Content-Type': 'application/json', Accept: 'application/json, text/event-stream'},
      body: rpc('tools/call', {name: 'search_docs', arguments: {query: 'refund'}}),
      signal: client.signal,
    }).catch(() => undefined);
    const signal = await inSearch;
    expect(signal.aborted, 'running while its client is there').toBe(false);
    // Aborting a request in flight closes its connection.
    client.abort();
    // The search is held until its signal aborts: it settles only because the client went away.
    await expect(searched!).rejects.toMatchObject({name: 'AbortError'});
    expect(signal.aborted).toBe(true);

    // In the search itself: a caller gone stops it at its next step, even with every part it needs in memory.
    const query = 'activate webhook retry idempotency token esim order package topup usage error code';
    // Its parts loaded: nothing is left to wait for but the search's own steps.
    expect((await docs.search(query)).length).toBeGreaterThan(0);
    const caller = new AbortController();
    // Queued before the search's first step yields: the caller is gone when that step ends.
    setImmediate(() => caller.abort());
    await expect(docs.search(query, undefined, caller.signal)).rejects.toMatchObject({name: 'AbortError'});
  });

  test('a deploy that replaces the build under a running server is picked up at the next call; a broken one fails loudly', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'docs-mcp-deploy-'));
    defer(() => rmSync(root, {recursive: true, force: true}));
    const live = path.join(root, 'build');
    const rewrite = (file: string, change: (text: string) => string) =>
      writeFileSync(file, change(readFileSync(file, 'utf8')));
    /** The next build: a copy of the live one, changed, written beside it and moved in place. */
    const deploy = (change: (next: string) => void) => {
      const next = path.join(root, 'next');
      cpSync(live, next, {recursive: true});
      change(next);
      rmSync(live, {recursive: true});
      renameSync(next, live);
    };
    cpSync(BUILD_DIR, live, {recursive: true});
    const served = new BuiltDocs(live);
    const before = await served.search('refund', 3);
    expect(before.length).toBeGreaterThan(0);

    // Every index part under a new content hash (the old names gone), the index under a new name with the last
    // one left beside it (an upload that keeps old files), and the first hit's page retitled.
    deploy((next) => {
      const manifest = readdirSync(next).find((name) => MANIFEST_FILE.test(name))!;
      const last = readFileSync(path.join(next, manifest), 'utf8');
      for (const part of readdirSync(path.join(next, PARTS_DIR)).filter((name) => name.endsWith('.json'))) {
        renameSync(path.join(next, PARTS_DIR, part), path.join(next, PARTS_DIR, `f${part}`));
        rewrite(path.join(next, manifest), (text) => text.replaceAll(`${PARTS_DIR}/${part}`, `${PARTS_DIR}/f${part}`));
      }
      renameSync(path.join(next, manifest), path.join(next, 'search-index-ffffffff.json'));
      writeFileSync(path.join(next, CURRENT_INDEX_FILE), 'search-index-ffffffff.json');
      // The last one, left beside it, even written later (a rollback keeps its build's file times).
      writeFileSync(path.join(next, manifest), last);
      utimesSync(path.join(next, manifest), new Date(Date.now() + 3_600_000), new Date(Date.now() + 3_600_000));
      const twin = path.join(next, twinPath(new URL(before[0]!.url).pathname));
      rewrite(twin, (markdown) => markdown.replace(/^# (.+)$/m, '# $1, next build'));
    });
    const after = await served.search('refund', 3);
    expect(after).toEqual(await new BuiltDocs(live).search('refund', 3));
    expect(after.find((hit) => hit.url === before[0]!.url)?.title).toBe(`${before[0]!.title}, next build`);

    // A deploy that rewrites only the contract in place (a sync that copies changed files; the index is the same).
    const {summary} = listOperations(served.document)[0]!.operation;
    const contract = path.join(live, 'openapi.yaml');
    expect(readFileSync(contract, 'utf8')).toContain(`summary: ${summary}\n`);
    rewrite(contract, (yaml) => yaml.replace(`summary: ${summary}\n`, `summary: ${summary}, next\n`));
    expect(listOperations(served.document)[0]!.operation.summary).toBe(`${summary}, next`);

    // A deploy that lost the index parts: the search says so rather than find nothing.
    deploy((next) => rmSync(path.join(next, PARTS_DIR), {recursive: true}));
    await expect(served.search('refund', 3)).rejects.toThrow(/incomplete .*redeploy/);
    // Through the tools: the caller reads what to do, without this machine's paths (the operator's log has them).
    const caller = await connectClient(await serve(served));
    defer(() => caller.close());
    expect(await toolError(caller, 'search_docs', {query: 'refund'}, /incomplete .*redeploy/)).not.toContain(root);
  });

  test('over HTTP: 200 concurrent calls, none lost', async () => {
    test.setTimeout(120_000);
    const queries = ['order', 'esim', 'refund', 'token', 'webhook', 'scopes', 'postman', 'iframe'];
    const clients = await Promise.all(Array.from({length: 10}, () => connectClient(endpoint)));
    const results = await Promise.all(
      Array.from({length: 200}, async (_, index) => {
        const query = queries[index % queries.length]!;
        return {query, hits: searchResults(await call(clients[index % 10]!, 'search_docs', {query, limit: 3}))};
      }),
    );
    await Promise.all(clients.map((each) => each.close()));
    expect(results).toHaveLength(200);
    for (const {query, hits} of results) expect(hits, query).toEqual(await docs.search(query, 3));
  });

  test('behind nginx (deploy/): /mcp reaches the server and the Origin check; with the server down or absent the site keeps working', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/mcp`;
    const root = BUILD_DIR;
    const site = await startSites({up: {root, mcp: endpoint}, down: {root, mcp: dead}, none: {root}});
    defer(() => site.stop());
    const {up, down, none} = site.urls;
    const proxied = await connectClient(`${up}/mcp`);
    const found = searchResults(await call(proxied, 'search_docs', {query: 'refund', limit: 2}));
    expect(found).toEqual(await docs.search('refund', 2));
    await proxied.close();
    // nginx passes the Origin on: the server refuses other sites' pages, with its JSON-RPC error, never stored.
    const foreign = await fromOrigin(`${up}/mcp`, 'https://evil.example');
    expectRefusal(foreign, 403, -32000, 'another origin, through nginx');
    expect(foreign.headers.filter(([name]) => name === 'cache-control')).toHaveLength(1);
    const own = await fromOrigin(`${up}/mcp`, new URL(SITE.url).origin);
    expectUnstored(own, 200, 'the site, through nginx');
    expect(JSON.parse(own.body)).toMatchObject({result: {tools: expect.any(Array)}});
    // nginx's own answers for /mcp (405, 413, 502 with the server down, 404 without it): tests/nginx.spec.ts.
    for (const url of [down, none]) expect((await fetch(`${url}/basics/sdk`)).status).toBe(200);
  });

  test("behind nginx: a body trickled a byte at a time, each pause under nginx's, is ended by the server's bound on a whole request (408)", async () => {
    test.setTimeout(120_000);
    const strict = await serve(docs, {requestTimeoutMs: 500});
    const site = await startSites({strict: {root: BUILD_DIR, mcp: strict}});
    defer(() => site.stop());
    const {hostname, port} = new URL(site.urls.strict);
    const socket = connect(Number(port), hostname);
    defer(() => socket.destroy());
    const body = LIST_TOOLS.padEnd(900);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // A byte every 100 ms: the whole body would take 90 s, and nginx's pause limit is never reached.
    let sent = 0;
    const trickle = setInterval(() => sent < body.length && socket.write(body[sent++]!), 100);
    defer(() => clearInterval(trickle));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      clearInterval(trickle);
      received += chunk.toString();
    });
    // Writes after nginx has answered and closed may fail: the answer is what counts. An error before any answer is
    // the test's failure, said at once.
    let failure = '';
    socket.on('error', (error) => {
      clearInterval(trickle);
      if (!received) failure = error.message;
    });
    await expect.poll(() => failure || received, {timeout: 80_000}).toMatch(/^HTTP\/1\.1 \d{3} [\s\S]*\r\n\r\n/);
    expect(received.split('\r\n')[0], `after ${sent} of ${body.length} bytes`).toMatch(/^HTTP\/1\.1 408 /);
    expect(sent, 'bytes sent before the answer').toBeLessThan(body.length);
  });

  test('get_page: a #anchor answers that section with its sub-sections; max_tokens trims and names the rest; languages; other hosts refused', async () => {
    test.setTimeout(120_000);
    let largest = {url: '', subsections: 0};
    for (const page of docPages(BUILD_DIR)) {
      const headings = builtHeadings(page.path);
      for (const [index, heading] of headings.entries()) {
        if (heading.depth !== 2) continue;
        const next = headings.findIndex((other, at) => at > index && other.depth === 2);
        const inside = headings.slice(index + 1, next === -1 ? undefined : next);
        const url = `${SITE.url}${page.path}#${heading.id}`;
        const answer = await call(client, 'get_page', {url});
        expect(answer.isError, url).toBeFalsy();
        const body = flat(text(answer));
        expect(body, url).toContain(heading.text);
        for (const sub of inside) expect(body, `${url} holds ${sub.id}`).toContain(sub.text);
        if (next !== -1)
          expect(body, `${url} stops before the next section`).not.toContain(`## ${headings[next]!.text}`);
        expect(answerOf<PageAnswer>(answer).url).toBe(url);
        if (inside.length > largest.subsections) largest = {url, subsections: inside.length};
      }
    }

    // max_tokens bounds the whole answer; what is left out is named with its URL, or counted when the note is full.
    const maxTokens = 250;
    const full = text(await call(client, 'get_page', {url: largest.url}));
    const trimmed = await call(client, 'get_page', {url: largest.url, max_tokens: maxTokens});
    const {markdown, leftOut} = answerOf<PageAnswer>(trimmed);
    expect(markdown.length).toBeLessThan(full.length);
    expect(markdown.length).toBeLessThanOrEqual(maxTokens * CHARS_PER_TOKEN);
    expect(leftOut.length).toBeGreaterThan(0);
    const note = markdown.split('\n---\n')[1]!;
    expect(note).toMatch(/^Left out \(max_tokens=250/);
    const listed = leftOut.filter(({heading, url}) => note.includes(`- ${heading}: ${url}`));
    expect(listed.length, 'entries the note has room for').toBeGreaterThan(0);
    if (listed.length < leftOut.length)
      expect(note).toContain(`- ${leftOut.length - listed.length} more: raise max_tokens`);
    const ids = new Set(builtHeadings(new URL(largest.url).pathname).map((heading) => heading.id));
    for (const {url} of leftOut) expect(ids.has(new URL(url).hash.slice(1)), url).toBe(true);
    // A whole page without max_tokens: within the default budget when larger, the rest named; all of it on request.
    const largestPage = docPages(BUILD_DIR)
      .map(({path: route}) => ({route, twin: readFileSync(path.join(BUILD_DIR, twinPath(route)), 'utf8')}))
      .sort((a, b) => b.twin.length - a.twin.length)[0]!;
    expect(largestPage.twin.length).toBeGreaterThan(DEFAULT_PAGE_TOKENS * CHARS_PER_TOKEN);
    const outlined = answerOf<PageAnswer>(await call(client, 'get_page', {url: largestPage.route}));
    expect(outlined.markdown.length).toBeLessThanOrEqual(DEFAULT_PAGE_TOKENS * CHARS_PER_TOKEN);
    expect(outlined.markdown).toContain(`max_tokens=${DEFAULT_PAGE_TOKENS}, the default for a whole page`);
    expect(outlined.leftOut.length).toBeGreaterThan(0);
    for (const {heading, url} of outlined.leftOut) expect(outlined.markdown).toContain(`- ${heading}: ${url}`);
    const whole = answerOf<PageAnswer>(
      await call(client, 'get_page', {url: largestPage.route, max_tokens: LIMITS.maxTokens}),
    );
    expect(whole.markdown.trim()).toBe(largestPage.twin.trim());

    // languages: on a page with Python code tabs, ["python"] keeps every Python block and drops other tabs.
    const tabbed = docPages(BUILD_DIR).find((page) => /role=["']?tab\b[^>]*>Python/.test(builtHtml(page.path)))!;
    expect(tabbed, 'a page with a Python tab').toBeTruthy();
    const fences = (markdown: string, language: string) => markdown.split(`\n\`\`\`${language}\n`).length - 1;
    const all = text(await call(client, 'get_page', {url: tabbed.path, max_tokens: LIMITS.maxTokens}));
    const python = text(
      await call(client, 'get_page', {url: tabbed.path, languages: ['python'], max_tokens: LIMITS.maxTokens}),
    );
    expect(fences(python, 'python')).toBe(fences(all, 'python'));
    expect(python.length).toBeLessThan(all.length);
    // Only tabs go: the prose between and after tab sets stays, every line of it.
    const prose = (markdown: string) => markdown.split('\n').filter((line) => /^[A-Za-z]/.test(line));
    for (const language of ['python', 'curl']) {
      const only = await call(client, 'get_page', {
        url: tabbed.path,
        languages: [language],
        max_tokens: LIMITS.maxTokens,
      });
      expect(prose(text(only)), language).toEqual(prose(all));
    }
    // A language no tab has: every tab, and a note that says so.
    expect(text(await call(client, 'get_page', {url: tabbed.path, languages: ['cobol']}))).toMatch(
      /No code tab here is in cobol; shown: .*Python/,
    );

    // Another host, and an anchor the page does not have.
    for (const foreign of [`https://elsewhere.example.org${tabbed.path}`, 'https://xn--docs-example.com/'])
      await toolError(client, 'get_page', {url: foreign}, /is not on this site/);
    await toolError(client, 'get_page', {url: `${largest.url}-nope`}, `Did you mean: ${largest.url}`);
    // An anchor that is not valid percent-encoding is one the page does not have, said as such.
    await toolError(client, 'get_page', {url: `${tabbed.path}#%`}, /^The page has no section "#%"/);
    // A whole page that fits the default budget comes whole in one language too.
    for (const {path: route} of docPages(BUILD_DIR)) {
      const whole = readFileSync(path.join(BUILD_DIR, twinPath(route)), 'utf8');
      if (whole.length <= DEFAULT_PAGE_TOKENS * CHARS_PER_TOKEN)
        expect((docs.page(route, {languages: ['python']}) as PageAnswer).leftOut, route).toEqual([]);
    }
    // Every section of every page, at every budget from the least, in a language or not: never over, and what is
    // left out is listed as far as the budget holds it. In process, yielding at each section to the HTTP server
    // this process also runs.
    const markdownParser = unified().use((await import('remark-parse')).default);
    for (const url of docs.anchors()) {
      await new Promise((resolve) => setImmediate(resolve));
      for (const budget of [LIMITS.minTokens, 250, 1_000])
        for (const languages of [undefined, ['curl'], Array.from({length: 5}, (_, at) => `${at}`.repeat(30))]) {
          const answer = docs.page(url, {maxTokens: budget, languages}) as PageAnswer;
          const label = `${url} max_tokens=${budget} ${languages ?? ''}`;
          expect(answer.markdown.length, label).toBeLessThanOrEqual(budget * CHARS_PER_TOKEN);
          if (answer.markdown.includes('\n---\n'))
            expect(
              markdownParser.parse(answer.markdown).children.some((node) => node.type === 'thematicBreak'),
              `${label}: the note after every code block, not in one`,
            ).toBe(true);
          if (budget >= 250 && answer.leftOut.length)
            expect(answer.markdown, `${label}: a URL left out, listed`).toContain(answer.leftOut[0]!.url);
        }
    }
  });

  test("get_operation: every operation complete, resolved, with the model's retry policies and exact anchors; loose names; get_schema", async () => {
    test.setTimeout(120_000);
    const document = docs.document;
    const operations = listOperations(document);
    const parametersOf = ({parameters = []}: (typeof operations)[number]['operation']) =>
      parameters.map((item) => resolveRef(document, item));
    // Operations share sections: each section is asked for once.
    const sections = new Map<string, Promise<string>>();
    for (const {method, path: apiPath, operation} of operations) {
      const answer = await call(client, 'get_operation', {operation: operation.operationId});
      const name = `${method} ${apiPath}`;
      expect(answer.isError, name).toBeFalsy();
      expect(JSON.stringify(answer.structuredContent), name).not.toContain('$ref');
      expect(text(answer), name).not.toContain('$ref');
      const detail = answerOf<OperationDetail>(answer);
      expect(detail.summary, name).toBe(operation.summary);
      expect(detail.scopes, name).toEqual(operationScopes(document, operation));
      // A sandbox-only operation names its own servers.
      const servers = (operation as {servers?: typeof document.servers}).servers ?? document.servers;
      const urls = detail.urls.map(({url}) => url);
      expect(urls, name).toEqual(servers.map((server) => `${server.url}${apiPath}`));
      for (const parameter of parametersOf(operation))
        expect(detail.parameters, `${name} ${parameter.name}`).toContainEqual(
          expect.objectContaining({name: parameter.name, in: parameter.in, required: parameter.required === true}),
        );
      for (const {status, codes} of detail.errors)
        for (const {code, retry} of codes) {
          expect(retry, `${name} ${status} ${code}`).toBe(errorRule(code).retry);
          expect(String(errorRule(code).status), code).toBe(status);
        }
      const codes = detail.errors.flatMap((error) => error.codes.map(({code}) => code));
      // The codes the behaviour model says this operation answers, not every code of a status (not OAuth's token).
      if (apiPath.startsWith('/v1/')) {
        const expected = errorCodesOf(operationFacts(document, method, apiPath, operation)).map(({code}) => code);
        expect([...codes].sort(), name).toEqual(expected.sort());
      }
      if (name === 'POST /v1/orders') {
        expect(codes).toEqual(expect.arrayContaining(['package_not_found', 'insufficient_balance']));
        expect(codes).not.toContain('esim_not_found');
      }
      // Each policy the codes use is said once, in the model's words.
      const used = [...new Set(detail.errors.flatMap((error) => error.codes.map(({retry}) => retry)))];
      expect(detail.retryPolicies, name).toEqual(
        Object.fromEntries(used.map((policy) => [policy, RETRY_POLICIES[policy].meaning])),
      );
      expect(detail.example.request, name).toContain(`-X ${method} `);
      // Each pointer names a section of the build (any heading level) whose own text names exactly this operation.
      const mention = new RegExp(`(?<![\\w/])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/{-])`);
      for (const {url} of detail.documentedAt) {
        const {pathname, hash} = new URL(url);
        const ids = [...builtHtml(pathname).matchAll(/<h[2-6]\b[^>]*\bid=("?)([^"\s>]+)\1/g)].map((match) => match[2]);
        expect(ids, url).toContain(hash.slice(1));
        if (!sections.has(url)) sections.set(url, call(client, 'get_page', {url}).then(text));
        expect(await sections.get(url), `${url} names ${name}`).toMatch(mention);
      }
    }
    const orders = answerOf<OperationDetail>(await call(client, 'get_operation', {operation: 'POST /v1/orders'}));
    expect(orders.parameters).toContainEqual(
      expect.objectContaining({name: 'Idempotency-Key', in: 'header', required: true}),
    );

    // Loose names: any case, without /v1, a concrete path; near misses get "did you mean".
    const withParameter = operations.find(
      ({method, path: apiPath}) => method === 'GET' && /\{[^}]+\}/.test(apiPath) && apiPath.startsWith('/v1/'),
    )!;
    const {operationId} = withParameter.operation;
    const concrete = withParameter.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
      String(parametersOf(withParameter.operation).find((parameter) => parameter.name === name)?.example ?? 'x1'),
    );
    for (const loose of [
      operationId.toUpperCase(),
      `${withParameter.method.toLowerCase()} ${withParameter.path.replace(/^\/v1/, '')}`,
      `GET ${concrete}`,
      `${SITE.url.replace('docs.', 'sandbox.api.')}${concrete}`,
    ]) {
      const found = await call(client, 'get_operation', {operation: loose});
      expect(answerOf<OperationDetail | undefined>(found)?.operationId, loose).toBe(operationId);
    }
    const nearMiss = new RegExp(`Did you mean: [^?]*${operationId}`);
    await toolError(client, 'get_operation', {operation: operationId.slice(0, -1)}, nearMiss);

    // get_schema: every components schema and every webhook event, resolved.
    const schemas = Object.keys(document.components.schemas ?? {});
    const events = webhookEventExamples(document).map(({type}) => type);
    expect(schemas.length * events.length).toBeGreaterThan(0);
    for (const name of [...schemas, ...events]) {
      const answer = await call(client, 'get_schema', {name: name.toLowerCase()});
      expect(answer.isError, name).toBeFalsy();
      expect(JSON.stringify(answer.structuredContent), name).not.toContain('$ref');
      const found = answerOf<SchemaDetail & {example?: {type?: string}}>(answer);
      expect(found.name).toBe(name);
      if (events.includes(name)) expect(found.example?.type, name).toBe(name);
    }
    await toolError(client, 'get_schema', {name: `${schemas[0]}x`}, `Did you mean: ${schemas[0]}`);
  });

  test('llms.txt and the Introduction tell partners how to add the hosted server, naming only tools it has', () => {
    const introduction = path.join(BUILD_DIR, 'index.md');
    for (const file of [path.join(BUILD_DIR, 'llms.txt'), introduction]) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).toContain(`claude mcp add --transport http acme-docs ${SITE.url}${MCP.path}`);
      for (const tool of TOOLS) expect(text, `${file} names ${tool}`).toContain(tool);
      for (const [named] of text.matchAll(/\b(?:search|get|list)_[a-z_]+/g)) expect(TOOLS).toContain(named);
    }
    const twin = readFileSync(introduction, 'utf8');
    for (const config of [/\.cursor\/mcp\.json/, /\.vscode\/mcp\.json/]) expect(twin).toMatch(config);
  });
});
