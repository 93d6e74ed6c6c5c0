/**
 * `npm run mcp:http -- [--port 3030] [--host 127.0.0.1] [--build <dir>] [--allow-origin <origin>]…`: the docs' MCP
 * server over Streamable HTTP at /mcp, stateless (a fresh server per request), behind nginx (deploy/README.md).
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import path from 'node:path';
import type {Duplex} from 'node:stream';
import {parseArgs} from 'node:util';

import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import {SITE} from '../src/constants/site';
import {BuiltDocs} from './docs';
import {createDocsServer} from './server';

/** A JSON-RPC request to these tools is small; nginx allows the same. */
export const MAX_BODY_BYTES = 64 * 1024;
/** How long a whole request may take to arrive: a JSON-RPC call is a few hundred bytes. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** What is still read of a refused body, so the client gets to read the 413, before the connection is cut. */
const DRAIN_BYTES = 1024 * 1024;

/** Browser pages that may call /mcp, besides loopback ones: the site's own (--allow-origin or DOCS_MCP_ALLOWED_ORIGINS replace it). */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = [new URL(SITE.url).origin];
const LOOPBACK_ORIGIN = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?$/;

export type HttpOptions = {
  host?: string;
  /** Exact origins (`https://docs.example.com`) whose pages may call /mcp; loopback origins always may. */
  allowedOrigins?: readonly string[];
  /** How long a whole request may take to arrive (default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
};

function rpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({jsonrpc: '2.0', error: {code, message}, id: null});
  response
    .writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'no-store',
      ...headers,
    })
    .end(body);
}

type Body = {text: string} | {refused: 'too-large' | 'gone'};

function readBody(request: IncomingMessage): Promise<Body> {
  if (Number(request.headers['content-length']) > MAX_BODY_BYTES) return Promise.resolve({refused: 'too-large'});
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      request.off('data', onData);
      resolve({refused: 'too-large'});
    };
    request.on('data', onData);
    request.on('end', () => resolve({text: Buffer.concat(chunks).toString('utf8')}));
    // Settles only if nothing above did: the client went away mid-body.
    request.on('close', () => resolve({refused: 'gone'}));
    request.on('error', () => resolve({refused: 'gone'}));
  });
}

/** Answers 413 and lets the rest of the body arrive (up to a bound), so the client is not reset before it reads it. */
function refuseTooLarge(request: IncomingMessage, response: ServerResponse): void {
  let drained = 0;
  request.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_BYTES) request.socket.destroy();
  });
  request.resume();
  rpcError(response, 413, -32600, `Request too large (over ${MAX_BODY_BYTES} bytes).`, {Connection: 'close'});
}

const isUpgrade = (request: IncomingMessage) =>
  request.headers.upgrade !== undefined || /(?:^|,)\s*upgrade\s*(?:,|$)/i.test(request.headers.connection ?? '');

/**
 * An allowed origin as browsers send it (`https://preview.example/` is `https://preview.example`; an editor's
 * webview, `vscode-webview://id`, has no URL origin but sends that); else it throws.
 */
function originOf(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const origin = url?.origin !== 'null' ? url?.origin : url.host ? `${url.protocol}//${url.host}` : undefined;
  if (!origin) throw new Error(`"${value}" is not an origin: give scheme://host[:port]`);
  return origin;
}

/** DOCS_MCP_ALLOWED_ORIGINS as a list; unset is undefined (the defaults), set to no origin at all is a mistake. */
export function allowedOriginsFromEnv(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const origins = value
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (!origins.length)
    throw new Error('DOCS_MCP_ALLOWED_ORIGINS names no origin: unset it for the default, or list origins with commas');
  return origins;
}

export function startHttpServer(docs: BuiltDocs, port: number, options: HttpOptions = {}): Promise<Server> {
  const host = options.host ?? '127.0.0.1';
  const allowed = new Set((options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS).map(originOf));
  // No Origin: not a browser, so no page can be riding on the caller's network position (DNS rebinding).
  const originAllowed = (origin: string | undefined) =>
    origin === undefined || allowed.has(origin) || LOOPBACK_ORIGIN.test(origin);

  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // Node checks its request timeouts every 30 s by default: often enough to keep the bound close.
  const server = createServer(
    {connectionsCheckingInterval: Math.min(1000, requestTimeout)},
    async (request, response) => {
      // A client that leaves while its body is read gets no work started.
      const clientGone = new AbortController();
      response.on('close', () => {
        if (!response.writableFinished) clientGone.abort();
      });
      try {
        if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp')
          return rpcError(response, 404, -32000, 'Not found: the MCP endpoint is /mcp.');
        if (request.method !== 'POST')
          return rpcError(response, 405, -32000, 'Method not allowed: POST JSON-RPC messages to /mcp.', {
            Allow: 'POST',
          });
        if (isUpgrade(request))
          return rpcError(response, 400, -32600, 'Bad request: /mcp does not switch protocols (no Upgrade).');
        if (!originAllowed(request.headers.origin))
          return rpcError(response, 403, -32000, `Forbidden: pages of ${request.headers.origin} may not call /mcp.`);
        const body = await readBody(request);
        if ('refused' in body) return body.refused === 'too-large' ? refuseTooLarge(request, response) : undefined;
        let message: unknown;
        try {
          message = JSON.parse(body.text);
        } catch {
          return rpcError(response, 400, -32700, 'Parse error: the body is not JSON.');
        }
        // MCP's 2025-06-18 revision removed JSON-RPC batching: one message per request.
        if (Array.isArray(message))
          return rpcError(
            response,
            400,
            -32600,
            'Invalid request: batches are not supported; send one JSON-RPC message per request.',
          );
        if (clientGone.signal.aborted) return;
        const mcp = createDocsServer(docs);
        const transport = new StreamableHTTPServerTransport({sessionIdGenerator: undefined, enableJsonResponse: true});
        // Closing the server aborts its handlers' signals (the SDK's own), so a search stops at its next step.
        response.on('close', () => {
          void transport.close();
          void mcp.close();
        });
        await mcp.connect(transport);
        response.setHeader('Cache-Control', 'no-store');
        await transport.handleRequest(request, response, message);
      } catch (error) {
        console.error(error);
        if (!response.headersSent) rpcError(response, 500, -32603, 'Internal error.');
      }
    },
  );
  // A whole request, its body included, arrives within this bound or gets 408 (Node's default waits 5 minutes).
  server.requestTimeout = requestTimeout;
  server.headersTimeout = requestTimeout;
  // Node's own refusals of a request it cannot parse (a header too large, an unknown method, too slow) carry no
  // Cache-Control: these say no-store, as every other answer of /mcp does.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & {_httpMessage?: ServerResponse | null}) => {
    // As Node's own handler: nothing is written over an answer already started on this connection.
    if (!socket.writable || socket._httpMessage?.headersSent) return void socket.destroy();
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nCache-Control: no-store\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () =>
      socket.destroy(),
    );
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (require.main === module) {
  const {values} = parseArgs({
    options: {
      port: {type: 'string', default: '3030'},
      host: {type: 'string', default: '127.0.0.1'},
      build: {type: 'string', default: process.env.DOCS_BUILD_DIR ?? path.join(__dirname, '..', 'build')},
      'allow-origin': {type: 'string', multiple: true},
    },
  });
  try {
    const docs = new BuiltDocs(path.resolve(values.build!));
    const allowedOrigins = values['allow-origin'] ?? allowedOriginsFromEnv(process.env.DOCS_MCP_ALLOWED_ORIGINS);
    void startHttpServer(docs, Number(values.port), {host: values.host, allowedOrigins}).then((server) => {
      console.log(`MCP server on http://${values.host}:${(server.address() as {port: number}).port}/mcp`);
    });
  } catch (error) {
    console.error(`mcp:http: ${(error as Error).message}`);
    process.exit(1);
  }
}
