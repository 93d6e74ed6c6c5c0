/**
 * `npm run mcp:http -- [--port 3030] [--host 127.0.0.1] [--build <dir>]`: the docs' MCP server over
 * Streamable HTTP at /mcp, stateless (a fresh server per request), behind nginx (deploy/README.md).
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import path from 'node:path';
import {parseArgs} from 'node:util';

import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import {BuiltDocs} from './docs';
import {createDocsServer} from './server';

/** A JSON-RPC request to these tools is small; nginx allows the same. */
export const MAX_BODY_BYTES = 64 * 1024;

function rpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response
    .writeHead(status, {'Content-Type': 'application/json'})
    .end(JSON.stringify({jsonrpc: '2.0', error: {code, message}, id: null}));
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export function startHttpServer(docs: BuiltDocs, port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer(async (request, response) => {
    try {
      if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp')
        return rpcError(response, 404, -32000, 'Not found: the MCP endpoint is /mcp.');
      if (request.method !== 'POST')
        return rpcError(response, 405, -32000, 'Method not allowed: POST JSON-RPC messages to /mcp.');
      const text = await readBody(request);
      if (text === undefined)
        return rpcError(response, 413, -32600, `Request too large (over ${MAX_BODY_BYTES} bytes).`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return rpcError(response, 400, -32700, 'Parse error: the body is not JSON.');
      }
      const mcp = createDocsServer(docs);
      const transport = new StreamableHTTPServerTransport({sessionIdGenerator: undefined, enableJsonResponse: true});
      response.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(request, response, body);
    } catch (error) {
      console.error(error);
      if (!response.headersSent) rpcError(response, 500, -32603, 'Internal error.');
    }
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (require.main === module) {
  const {values} = parseArgs({
    options: {
      port: {type: 'string', default: '3030'},
      host: {type: 'string', default: '127.0.0.1'},
      build: {type: 'string', default: process.env.DOCS_BUILD_DIR ?? path.join(__dirname, '..', 'build')},
    },
  });
  const docs = new BuiltDocs(path.resolve(values.build!));
  void startHttpServer(docs, Number(values.port), values.host).then((server) => {
    console.log(`MCP server on http://${values.host}:${(server.address() as {port: number}).port}/mcp`);
  });
}
