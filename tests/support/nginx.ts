/**
 * Starts a real nginx on loopback with deploy/http.conf and deploy/nginx.conf, included unchanged
 * in server blocks shaped like deploy/site.conf.example, serving build/ (tests/nginx.spec.ts,
 * bench/serve-build.ts, bench/serve.ts). Every port is picked free by the OS, so parallel
 * runs never collide. Everything nginx writes (pid, logs, temp files) goes to a temp directory.
 * A missing nginx is an error, never a skip.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import {createServer as createTlsServer} from 'node:https';
import {connect, type AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {freePort} from '../../lib/ports';

export const REPO_DIR = path.resolve(__dirname, '../..');
export const BUILD_DIR = path.join(REPO_DIR, 'build');
export const CSP_INCLUDE = path.join(BUILD_DIR, '.nginx/csp.conf');
export const DEPLOY_DIR = path.join(REPO_DIR, 'deploy');
const HTTP_CONF = path.join(DEPLOY_DIR, 'http.conf');
export const DEPLOY_CONF = path.join(DEPLOY_DIR, 'nginx.conf');
export const BROTLI_CONF = path.join(DEPLOY_DIR, 'brotli.conf');
const SITE_EXAMPLE = path.join(DEPLOY_DIR, 'site.conf.example');

export type CollectedEvent = {method: string; url: string; headers: IncomingHttpHeaders; body: string};

/** What the recording collector answers with, besides its body: headers no visitor may receive. */
export const COLLECTOR_ANSWER_HEADERS: Record<string, string> = {
  'Set-Cookie': 'collector_session=abc; Path=/; HttpOnly',
  'Cache-Control': 'public, max-age=600',
  'Content-Security-Policy': 'default-src *',
  'X-Frame-Options': 'SAMEORIGIN',
  'Strict-Transport-Security': 'max-age=0',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Credentials': 'true',
  Location: 'https://collector.example/elsewhere',
  Link: '<https://collector.example/>; rel=preconnect',
  'X-Powered-By': 'Collector 1.0',
  Via: '1.1 collector-proxy',
  'Alt-Svc': 'h3=":443"',
  ETag: '"collector"',
  Vary: 'Cookie',
};

export type NginxServer = {
  /** deploy/nginx.conf with a collector upstream (a local recorder, `events`). */
  url: string;
  /** The same rules with `$docs_collector ""`: /api/event answers 204. */
  urlWithoutCollector: string;
  /** The same rules over a temp root holding sample .md/.txt/.yaml files. */
  urlSamples: string;
  /** The same rules with an https collector whose certificate is self-signed (`untrustedEvents`). */
  urlUntrustedCollector: string;
  /** The same rules with a collector URL nothing listens on. */
  urlDeadCollector: string;
  brotli: boolean;
  events: CollectedEvent[];
  untrustedEvents: CollectedEvent[];
  /** What `nginx -t` printed (to stderr) for this configuration. */
  configTest: string;
  /** The error log so far. */
  errorLog: () => string;
  stop: () => Promise<void>;
};

const NGINX_MISSING = `nginx is not installed (or not on PATH): the nginx tests need it.
Install it: Debian/Ubuntu \`sudo apt-get install nginx\` (plus libnginx-mod-http-brotli-static and
libnginx-mod-http-brotli-filter for brotli), macOS \`brew install nginx\`; or set NGINX_BIN=/path/to/nginx.`;

function findNginx(): string | undefined {
  const candidates = [
    process.env.NGINX_BIN,
    'nginx',
    '/usr/sbin/nginx',
    '/usr/local/sbin/nginx',
    '/opt/homebrew/bin/nginx',
  ];
  return candidates.find((candidate) => candidate && spawnSync(candidate, ['-v'], {stdio: 'ignore'}).status === 0);
}

export const hasNginx = (): boolean => findNginx() !== undefined;

export function nginxBinary(): string {
  const found = findNginx();
  if (!found) throw new Error(NGINX_MISSING);
  return found;
}

type BuildPaths = {version: string; mimeTypes: string; brotliModules: string[] | undefined};

/**
 * `--conf-path` and `--modules-path` from `nginx -V`, to find mime.types and the brotli modules
 * (both the static and the filter module, or brotli is off).
 */
function buildPaths(bin: string): BuildPaths {
  const info = spawnSync(bin, ['-V'], {encoding: 'utf8'}).stderr;
  const confPath = /--conf-path=(\S+)/.exec(info)?.[1] ?? '/etc/nginx/nginx.conf';
  const modulesPath = /--modules-path=(\S+)/.exec(info)?.[1] ?? '/usr/lib/nginx/modules';
  const modules = ['ngx_http_brotli_filter_module.so', 'ngx_http_brotli_static_module.so'].map((name) =>
    path.join(modulesPath, name),
  );
  const builtIn = /brotli/.test(info);
  return {
    version: /nginx\/(\d+\.\d+\.\d+)/.exec(info)?.[1] ?? '0.0.0',
    mimeTypes: path.join(path.dirname(confPath), 'mime.types'),
    brotliModules: builtIn ? [] : modules.every((module) => existsSync(module)) ? modules : undefined,
  };
}

/** The http-context preamble every configuration here shares: temp paths under `prefix`. */
function httpPreamble(prefix: string, mimeTypes: string): string {
  return `
  include ${mimeTypes};
  default_type application/octet-stream;
  # As Debian's nginx.conf has them (deploy/nginx.conf turns tcp_nopush off for its server).
  sendfile on;
  tcp_nopush on;
  access_log off;
  client_body_temp_path ${path.join(prefix, 'client_body')};
  proxy_temp_path ${path.join(prefix, 'proxy')};
  fastcgi_temp_path ${path.join(prefix, 'fastcgi')};
  uwsgi_temp_path ${path.join(prefix, 'uwsgi')};
  scgi_temp_path ${path.join(prefix, 'scgi')};`;
}

function mainContext(prefix: string, brotliModules: string[] | undefined, workerConnections = 512): string {
  return `${(brotliModules ?? []).map((module) => `load_module ${module};`).join('\n')}
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log ${path.join(prefix, 'error.log')} warn;
events { worker_connections ${workerConnections}; }`;
}

export type SiteBlock = {
  port: number;
  root: string;
  collector: string;
  /** The MCP server's URL (mcp/http.ts), "" for none. */
  mcp?: string;
  brotli: boolean;
  deployConf?: string;
  brotliConf?: string;
};

/** A server block like deploy/site.conf.example's, on loopback, without TLS. */
export function serverBlock({
  port,
  root,
  collector,
  mcp = '',
  brotli,
  deployConf = DEPLOY_CONF,
  brotliConf = BROTLI_CONF,
}: SiteBlock): string {
  return `
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    root ${root};
    set $docs_collector "${collector}";
    set $docs_mcp "${mcp}";
    include ${CSP_INCLUDE};
    ${brotli ? `include ${brotliConf};` : ''}
    include ${deployConf};
  }`;
}

type Recorder = {server: Server; url: string};

function recordingHandler(events: CollectedEvent[]) {
  return (request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      events.push({method: request.method ?? '', url: request.url ?? '', headers: request.headers, body});
      response.writeHead(202, {'content-type': 'text/plain', ...COLLECTOR_ANSWER_HEADERS}).end('ok');
    });
  };
}

async function listenLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function startCollector(events: CollectedEvent[]): Promise<Recorder> {
  const server = createServer(recordingHandler(events));
  return {server, url: `http://127.0.0.1:${await listenLoopback(server)}/api/event`};
}

/** A self-signed certificate for 127.0.0.1 and docs.example.com, made with openssl into `dir`. */
export function selfSignedCertificate(dir: string): {cert: string; key: string} {
  const cert = path.join(dir, 'self-signed.pem');
  const key = path.join(dir, 'self-signed.key');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:docs.example.com',
    ],
    {encoding: 'utf8'},
  );
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate:\n${made.stderr}`);
  return {cert, key};
}

async function startUntrustedCollector(events: CollectedEvent[], dir: string): Promise<Recorder> {
  const {cert, key} = selfSignedCertificate(dir);
  const server = createTlsServer({cert: readFileSync(cert), key: readFileSync(key)}, recordingHandler(events));
  return {server, url: `https://127.0.0.1:${await listenLoopback(server)}/api/event`};
}

async function waitUntilServing(url: string, child: ChildProcess, errorLog: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      await fetch(url, {redirect: 'manual'});
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const log = existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '';
  throw new Error(`nginx did not start serving ${url}:\n${log}`);
}

export type RunningNginx = {configTest: string; errorLog: () => string; stop: () => Promise<void>};

/**
 * `nginx -t`, then nginx in the foreground, for the configuration `makeConf(ports)` with `portCount`
 * free ports. A port taken between picking and binding (another process on the machine) gets the
 * whole start retried with new ports.
 */
export async function runNginx(
  prefix: string,
  portCount: number,
  makeConf: (ports: number[]) => string,
  probePath = '/',
): Promise<RunningNginx & {ports: number[]}> {
  const bin = nginxBinary();
  const errorLog = path.join(prefix, 'error.log');
  const conf = path.join(prefix, 'nginx.conf');
  for (let attempt = 1; ; attempt++) {
    const ports: number[] = [];
    while (ports.length < portCount) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    writeFileSync(conf, makeConf(ports));
    const configTest = spawnSync(bin, ['-t', '-p', prefix, '-c', conf], {encoding: 'utf8'});
    if (configTest.status !== 0) {
      throw new Error(`nginx -t rejected the configuration:\n${configTest.stderr}`);
    }
    rmSync(errorLog, {force: true});
    const child = spawn(bin, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], {stdio: ['ignore', 'ignore', 'pipe']});
    try {
      await waitUntilServing(`http://127.0.0.1:${ports[0]}${probePath}`, child, errorLog);
    } catch (error) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      const log = existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '';
      if (attempt < 3 && /Address already in use/.test(log)) continue;
      throw error;
    }
    return {
      ports,
      configTest: configTest.stderr,
      errorLog: () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''),
      async stop() {
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGQUIT');
          await exited;
        }
      },
    };
  }
}

function assertBuild(): void {
  if (!existsSync(path.join(BUILD_DIR, 'index.html')) || !existsSync(CSP_INCLUDE)) {
    throw new Error(
      `No production build with ${path.relative(REPO_DIR, CSP_INCLUDE)}: run \`npm run build:e2e\` (or \`npm run build\`) first.`,
    );
  }
}

/** Starts nginx with five server blocks (see NginxServer), each on its own free port. */
export async function startNginx(): Promise<NginxServer> {
  assertBuild();
  const {mimeTypes, brotliModules} = buildPaths(nginxBinary());
  const brotli = brotliModules !== undefined;
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'docs-nginx-'));
  const samples = path.join(prefix, 'samples');
  mkdirSync(samples);
  writeFileSync(path.join(samples, 'page.md'), '# Sample\n\nMarkdown twin of a page.\n');
  writeFileSync(path.join(samples, 'notes.txt'), 'Plain text ✓\n');
  writeFileSync(path.join(samples, 'spec.yaml'), 'openapi: 3.1.0\n');
  writeFileSync(path.join(samples, 'index.html'), '<!doctype html><title>Samples</title>');
  writeFileSync(path.join(samples, '404.html'), '<!doctype html><title>Not found</title>');

  const events: CollectedEvent[] = [];
  const untrustedEvents: CollectedEvent[] = [];
  const collector = await startCollector(events);
  const untrusted = await startUntrustedCollector(untrustedEvents, prefix);
  const deadCollector = `http://127.0.0.1:${await freePort()}/api/event`;
  try {
    const nginx = await runNginx(
      prefix,
      5,
      (ports) => `${mainContext(prefix, brotliModules)}
http {
  ${httpPreamble(prefix, mimeTypes)}
  include ${HTTP_CONF};
  ${serverBlock({port: ports[0]!, root: BUILD_DIR, collector: collector.url, brotli})}
  ${serverBlock({port: ports[1]!, root: BUILD_DIR, collector: '', brotli})}
  ${serverBlock({port: ports[2]!, root: samples, collector: '', brotli})}
  ${serverBlock({port: ports[3]!, root: BUILD_DIR, collector: untrusted.url, brotli})}
  ${serverBlock({port: ports[4]!, root: BUILD_DIR, collector: deadCollector, brotli})}
}
`,
    );
    const [main, without, sampled, untrustedPort, dead] = nginx.ports.map((port) => `http://127.0.0.1:${port}`);
    return {
      url: main!,
      urlWithoutCollector: without!,
      urlSamples: sampled!,
      urlUntrustedCollector: untrustedPort!,
      urlDeadCollector: dead!,
      brotli,
      events,
      untrustedEvents,
      configTest: nginx.configTest,
      errorLog: nginx.errorLog,
      async stop() {
        await nginx.stop();
        await Promise.all(
          [collector.server, untrusted.server].map((server) => new Promise((resolve) => server.close(resolve))),
        );
        rmSync(prefix, {recursive: true, force: true});
      },
    };
  } catch (error) {
    collector.server.close();
    untrusted.server.close();
    rmSync(prefix, {recursive: true, force: true});
    throw error;
  }
}

/**
 * Any number of server blocks over build/ (bench/serve.ts compares configurations side by
 * side): `blocks(ports)` returns their text, one port per block. The collector-less rules.
 */
export async function startNginxWith(
  blockCount: number,
  blocks: (ports: number[], brotli: boolean) => string,
): Promise<{urls: string[]; brotli: boolean; stop: () => Promise<void>}> {
  assertBuild();
  const {mimeTypes, brotliModules} = buildPaths(nginxBinary());
  const brotli = brotliModules !== undefined;
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'docs-nginx-'));
  try {
    const nginx = await runNginx(
      prefix,
      blockCount,
      (ports) => `${mainContext(prefix, brotliModules, 1024)}
http {
  ${httpPreamble(prefix, mimeTypes)}
  include ${HTTP_CONF};
  ${blocks(ports, brotli)}
}
`,
    );
    return {
      urls: nginx.ports.map((port) => `http://127.0.0.1:${port}`),
      brotli,
      async stop() {
        await nginx.stop();
        rmSync(prefix, {recursive: true, force: true});
      },
    };
  } catch (error) {
    rmSync(prefix, {recursive: true, force: true});
    throw error;
  }
}

export type ExampleSite = {httpUrl: string; httpsUrl: string; configTest: string; stop: () => Promise<void>};

/**
 * deploy/site.conf.example itself, with only its paths, ports and certificate replaced (each
 * replacement must find its text, so the example cannot drift from what is tested). IPv6 listens
 * are dropped (loopback only); the brotli include too when the modules are missing.
 */
export async function startExampleSite(): Promise<ExampleSite> {
  assertBuild();
  const {version, mimeTypes, brotliModules} = buildPaths(nginxBinary());
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'docs-nginx-example-'));
  const {cert, key} = selfSignedCertificate(prefix);
  const modernHttp2 = version.localeCompare('1.25.1', undefined, {numeric: true}) >= 0;
  const replace = (text: string, from: string | RegExp, to: string): string => {
    const next = text.replace(from, to);
    if (next === text)
      throw new Error(`deploy/site.conf.example no longer contains ${from}: update tests/support/nginx.ts`);
    return next;
  };
  const site = (ports: number[]): string => {
    let text = readFileSync(SITE_EXAMPLE, 'utf8');
    text = replace(text, /\/srv\/acme-docs\/build/g, BUILD_DIR);
    text = replace(text, /\/srv\/acme-docs\/deploy/g, DEPLOY_DIR);
    text = replace(text, /^\s*listen \[::\].*$/gm, '');
    text = replace(
      text,
      /listen 443 ssl http2;/,
      modernHttp2 ? `listen 127.0.0.1:${ports[1]} ssl; http2 on;` : `listen 127.0.0.1:${ports[1]} ssl http2;`,
    );
    text = replace(text, /listen 80;/, `listen 127.0.0.1:${ports[0]};`);
    text = replace(text, '/etc/ssl/certs/docs.example.com.pem', cert);
    text = replace(text, '/etc/ssl/private/docs.example.com.key', key);
    if (!brotliModules) text = replace(text, /^.*include .*brotli\.conf;.*$/m, '');
    return text;
  };
  try {
    const nginx = await runNginx(
      prefix,
      2,
      (ports) => `${mainContext(prefix, brotliModules)}
http {
  ${httpPreamble(prefix, mimeTypes)}
  ${site(ports)}
}
`,
    );
    return {
      httpUrl: `http://127.0.0.1:${nginx.ports[0]}`,
      httpsUrl: `https://127.0.0.1:${nginx.ports[1]}`,
      configTest: nginx.configTest,
      async stop() {
        await nginx.stop();
        rmSync(prefix, {recursive: true, force: true});
      },
    };
  } catch (error) {
    rmSync(prefix, {recursive: true, force: true});
    throw error;
  }
}

export type RawAnswer = {status: number; headers: [string, string][]; head: string};

/**
 * Sends `request` (raw HTTP/1.x text, sent as is, possibly malformed) to `url`'s host and port and
 * resolves with the answer's status line and headers, in order, repeats included.
 * `localAddress` picks the client address on loopback (127.0.0.0/8): nginx's per-client limits
 * then count it apart from other tests.
 */
export function rawRequest(url: string, request: string, options: {localAddress?: string} = {}): Promise<RawAnswer> {
  const {hostname, port} = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({host: hostname, port: Number(port), localAddress: options.localAddress}, () =>
      socket.write(request),
    );
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.destroy();
      const [statusLine, ...lines] = received.slice(0, end).split('\r\n');
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0),
        headers: lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
        head: received.slice(0, end),
      });
    });
    socket.on('error', reject);
    socket.on('end', () => reject(new Error(`connection closed without an answer; received: ${received}`)));
  });
}

/** A Playwright worker fixture: one nginx per worker, on ports the OS picks free. */
export const nginxWorkerFixture: [
  (args: object, use: (server: NginxServer) => Promise<void>) => Promise<void>,
  {scope: 'worker'; timeout: number},
] = [
  async ({}, use) => {
    const server = await startNginx();
    await use(server);
    await server.stop();
  },
  {scope: 'worker', timeout: 30_000},
];

export type RawExchange = RawAnswer & {body: string};

/** A chunked body as sent, decoded (latin1 in, latin1 out). */
function unchunk(body: string): string {
  let decoded = '';
  for (let at = 0; ;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, lineEnd), 16);
    if (lineEnd < 0 || !size) return decoded;
    decoded += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * Sends `request` (raw HTTP/1.x text) and resolves with the whole answer once the server closes the
 * connection (ask for `Connection: close`); a reset after the answer counts as a close.
 */
export function rawExchange(
  url: string,
  request: string | Buffer[],
  options: {localAddress?: string} = {},
): Promise<RawExchange> {
  const {hostname, port} = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({host: hostname, port: Number(port), localAddress: options.localAddress}, () => {
      for (const part of typeof request === 'string' ? [request] : request) socket.write(part);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const received = Buffer.concat(chunks).toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      const head = end < 0 ? received : received.slice(0, end);
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: [string, string][] = lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]);
      const body = end < 0 ? '' : received.slice(end + 4);
      const chunked = headers.some(([name, value]) => name === 'transfer-encoding' && /chunked/i.test(value));
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0),
        headers,
        head,
        body: chunked ? unchunk(body) : body,
      });
    });
  });
}
