/**
 * The docs' MCP server (mcp/), driven by the official SDK's own client over both transports, stdio
 * and Streamable HTTP, against the e2e build. Expectations come from the build and the contract.
 * Node only (@viewport-independent); its relevance matches the box's in tests/search.spec.ts.
 */
import {readFileSync} from 'node:fs';
import type {Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import path from 'node:path';

import {expect, test} from '@playwright/test';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';

import {listOperations} from '../lib/contract/openapi';
import {BuiltDocs} from '../mcp/docs';
import {MAX_BODY_BYTES, startHttpServer} from '../mcp/http';
import {LIMITS} from '../mcp/server';
import {MCP, SITE} from '../src/constants/site';
import {BUILD_DIR, docPages} from './support/docs';
import {serverBlock, startNginxWith} from './support/nginx';
import {freePort} from '../lib/ports';

const ROOT = path.resolve(__dirname, '..');
const TOOLS = ['get_operation', 'get_page', 'list_operations', 'search_docs'];

const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

async function connectStdio(): Promise<Client> {
  const client = new Client({name: 'docs-test', version: '1.0.0'});
  await client.connect(
    new StdioClientTransport({
      command: path.join(ROOT, 'node_modules/.bin/tsx'),
      args: [path.join(ROOT, 'mcp/stdio.ts'), '--build', BUILD_DIR],
      cwd: ROOT,
      stderr: 'pipe',
    }),
  );
  return client;
}

async function connectHttp(url: string): Promise<Client> {
  const client = new Client({name: 'docs-test', version: '1.0.0'});
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

test.describe('MCP server', {tag: '@viewport-independent'}, () => {
  const docs = new BuiltDocs(BUILD_DIR);
  let http: Server;
  let endpoint: string;

  test.beforeAll(async () => {
    http = await startHttpServer(docs, 0);
    endpoint = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  test.afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  for (const transport of ['stdio', 'http'] as const) {
    test(`over ${transport}: the four tools, each one's answer, and clear errors that leave the server up`, async () => {
      test.setTimeout(60_000);
      const client = transport === 'stdio' ? await connectStdio() : await connectHttp(endpoint);
      try {
        const {tools} = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
        for (const tool of tools) {
          expect(tool.description?.length, tool.name).toBeGreaterThan(40);
          expect(tool.inputSchema.type).toBe('object');
        }

        // search_docs: the box's ranking, with absolute URLs into the site.
        const search = (await client.callTool({
          name: 'search_docs',
          arguments: {query: 'create an order', limit: 3},
        })) as CallToolResult;
        const hits = (
          search.structuredContent as {results: {title: string; url: string; section: string | null; snippet: string}[]}
        ).results;
        expect(hits).toEqual(await docs.search('create an order', 3));
        expect(hits.length).toBe(3);
        for (const hit of hits) expect(hit.url.startsWith(`${SITE.url}/`)).toBe(true);

        // get_page: every page of the sitemap by canonical URL and by path.
        for (const page of docPages()) {
          const byUrl = (await client.callTool({
            name: 'get_page',
            arguments: {url: `${SITE.url}${page.path}`},
          })) as CallToolResult;
          expect(byUrl.isError, page.path).toBeFalsy();
          expect(text(byUrl).startsWith(`# ${page.title}\n`), page.path).toBe(true);
        }
        const byPath = (await client.callTool({
          name: 'get_page',
          arguments: {url: '/basics/sdk#errors'},
        })) as CallToolResult;
        expect(text(byPath)).toContain(`URL: ${SITE.url}/basics/sdk`);

        // list_operations and get_operation: every operation of the served contract, by id and by "METHOD /path".
        const operations = listOperations(docs.document);
        const listed = (await client.callTool({name: 'list_operations', arguments: {}})) as CallToolResult;
        const rows = (
          listed.structuredContent as {
            operations: {operationId: string; method: string; path: string; scopes: string[]}[];
          }
        ).operations;
        expect(rows.map((row) => `${row.method} ${row.path}`).sort()).toEqual(
          operations.map(({method, path: apiPath}) => `${method} ${apiPath}`).sort(),
        );
        const first = operations.find(({path: apiPath}) => apiPath.startsWith('/v1/'))!;
        for (const id of [first.operation.operationId, `${first.method} ${first.path}`]) {
          const one = (await client.callTool({name: 'get_operation', arguments: {operation: id}})) as CallToolResult;
          const operation = one.structuredContent as {
            operationId: string;
            scopes: string[];
            responses: object;
            documentedAt: {page: string}[];
          };
          expect(operation.operationId, id).toBe(first.operation.operationId);
          expect(operation.scopes.length, id).toBeGreaterThan(0);
          expect(Object.keys(operation.responses).length, id).toBeGreaterThan(0);
          expect(operation.documentedAt.length, `${id} is documented on a page`).toBeGreaterThan(0);
        }

        // Unknown page and operation: a clear tool error.
        const noPage = (await client.callTool({name: 'get_page', arguments: {url: '/no/such/page'}})) as CallToolResult;
        expect(noPage.isError).toBe(true);
        expect(text(noPage)).toMatch(/No documentation page at "\/no\/such\/page"/);
        const noOperation = (await client.callTool({
          name: 'get_operation',
          arguments: {operation: 'GET /v1/nope'},
        })) as CallToolResult;
        expect(noOperation.isError).toBe(true);
        expect(text(noOperation)).toMatch(/No API operation "GET \/v1\/nope"/);

        // Oversized and malformed input: refused with a message, and the server answers the next call.
        for (const [name, args] of [
          ['search_docs', {query: 'x'.repeat(LIMITS.query + 1)}],
          ['search_docs', {query: 42}],
          ['search_docs', {query: 'esim', limit: 1000}],
          ['get_page', {}],
          ['get_operation', {operation: 'x'.repeat(LIMITS.operation + 1)}],
        ] as const) {
          const refused = await client.callTool({name, arguments: args}).then(
            (result) => text(result as CallToolResult),
            (error: Error) => error.message,
          );
          expect(refused, `${name} ${JSON.stringify(args).slice(0, 60)}`).toMatch(
            /invalid|too_big|expected|required|must/i,
          );
        }
        const after = (await client.callTool({name: 'search_docs', arguments: {query: 'refund'}})) as CallToolResult;
        expect((after.structuredContent as {results: unknown[]}).results.length).toBeGreaterThan(0);
        // Odd queries never fail: punctuation only, emoji, Lunr syntax.
        for (const query of ['???', '🙂🙂', 'title:~2 +-*', '<script>']) {
          const odd = (await client.callTool({name: 'search_docs', arguments: {query}})) as CallToolResult;
          expect(odd.isError, query).toBeFalsy();
        }
      } finally {
        await client.close();
      }
    });
  }

  test('over HTTP: a body that is not JSON, a huge body, another method or path: a JSON-RPC error, and the server stays up', async () => {
    const post = (body: string, url = endpoint) =>
      fetch(url, {
        method: 'POST',
        headers: {'Content-Type': 'application/json', Accept: 'application/json, text/event-stream'},
        body,
      });
    const notJson = await post('{"jsonrpc": ');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({error: {code: -32700}});
    const huge = await post(
      JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/list', params: {pad: 'x'.repeat(MAX_BODY_BYTES)}}),
    ).catch(() => undefined);
    expect(huge === undefined || huge.status === 413, 'refused or cut off').toBe(true);
    expect((await fetch(endpoint)).status).toBe(405);
    expect((await post('{}', endpoint.replace(/\/mcp$/, '/other'))).status).toBe(404);
    const client = await connectHttp(endpoint);
    expect((await client.listTools()).tools.length).toBe(TOOLS.length);
    await client.close();
  });

  test('over HTTP: 200 concurrent calls, none lost', async () => {
    test.setTimeout(120_000);
    const queries = ['order', 'esim', 'refund', 'token', 'webhook', 'scopes', 'postman', 'iframe'];
    const clients = await Promise.all(Array.from({length: 10}, () => connectHttp(endpoint)));
    const started = Date.now();
    const timings: number[] = [];
    const results = await Promise.all(
      Array.from({length: 200}, async (_, index) => {
        const query = queries[index % queries.length]!;
        const begun = Date.now();
        const result = (await clients[index % clients.length]!.callTool({
          name: 'search_docs',
          arguments: {query, limit: 3},
        })) as CallToolResult;
        timings.push(Date.now() - begun);
        return {query, results: (result.structuredContent as {results: unknown[]}).results};
      }),
    );
    const wall = Date.now() - started;
    await Promise.all(clients.map((client) => client.close()));
    timings.sort((a, b) => a - b);
    const figures = `200 calls over 10 clients in ${wall} ms; p50 ${timings[99]} ms, p99 ${timings[197]} ms`;
    test.info().annotations.push({type: 'MCP load', description: figures});
    console.log(`MCP load: ${figures}`);
    expect(results).toHaveLength(200);
    for (const {query, results: hits} of results) expect(hits, query).toEqual(await docs.search(query, 3));
  });

  test('behind nginx (deploy/): /mcp reaches the server; with it down only /mcp fails, the site keeps working', async () => {
    test.setTimeout(60_000);
    const dead = `http://127.0.0.1:${await freePort()}/mcp`;
    const site = await startNginxWith(3, ([up, down, none]) =>
      [
        serverBlock({port: up!, root: BUILD_DIR, collector: '', mcp: endpoint, brotli: false}),
        serverBlock({port: down!, root: BUILD_DIR, collector: '', mcp: dead, brotli: false}),
        serverBlock({port: none!, root: BUILD_DIR, collector: '', brotli: false}),
      ].join('\n'),
    );
    try {
      const [up, down, none] = site.urls as [string, string, string];
      const client = await connectHttp(`${up}/mcp`);
      const found = (await client.callTool({
        name: 'search_docs',
        arguments: {query: 'refund', limit: 2},
      })) as CallToolResult;
      expect((found.structuredContent as {results: unknown[]}).results).toEqual(await docs.search('refund', 2));
      await client.close();
      const viaNginx = (url: string, init: RequestInit = {}) =>
        fetch(url, {
          method: 'POST',
          headers: {'Content-Type': 'application/json', Accept: 'application/json, text/event-stream'},
          body: '{}',
          ...init,
        });
      expect((await fetch(`${up}/mcp`)).status).toBe(405);
      expect((await viaNginx(`${up}/mcp`, {body: 'x'.repeat(70 * 1024)})).status).toBe(413);
      expect((await viaNginx(`${down}/mcp`)).status).toBe(502);
      expect((await viaNginx(`${none}/mcp`)).status).toBe(404);
      for (const url of [down, none]) expect((await fetch(`${url}/basics/sdk`)).status).toBe(200);
    } finally {
      await site.stop();
    }
  });

  test('llms.txt names the MCP endpoint and its tools', () => {
    const llms = readFileSync(path.join(BUILD_DIR, 'llms.txt'), 'utf8');
    expect(llms).toContain(`${SITE.url}${MCP.path}`);
    for (const tool of TOOLS) expect(llms).toContain(tool);
  });
});
