/**
 * A real nginx on loopback with deploy/http.conf and deploy/nginx.conf included unchanged, in server blocks shaped like
 * deploy/site.conf.example, serving build/; free ports and a temp prefix, so parallel runs never collide.
 */
import {spawn, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {connect} from 'node:net';
import os from 'node:os';
import {connect as tlsConnect} from 'node:tls';
import path from 'node:path';
import {freePort} from '../../lib/ports';
import {BUILD_DIR} from './docs';

const REPO_DIR = path.resolve(__dirname, '../..');
export {BUILD_DIR};
export const CSP_INCLUDE = path.join(BUILD_DIR, '.nginx/csp.conf');
const DEPLOY_DIR = path.join(REPO_DIR, 'deploy');
const HTTP_CONF = path.join(DEPLOY_DIR, 'http.conf');
export const DEPLOY_CONF = path.join(DEPLOY_DIR, 'nginx.conf');
export const BROTLI_CONF = path.join(DEPLOY_DIR, 'brotli.conf');
const SITE_EXAMPLE = path.join(DEPLOY_DIR, 'site.conf.example');

const NGINX_MISSING = `nginx is not installed (or not on PATH): the nginx tests need it.
Install it: Debian/Ubuntu \`sudo apt-get install nginx\` (plus libnginx-mod-http-brotli-static and
libnginx-mod-http-brotli-filter for brotli), macOS \`brew install nginx\`; or set NGINX_BIN=/path/to/nginx.`;

const NGINX_CANDIDATES = ['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/opt/homebrew/bin/nginx'];
const runs = (bin: string | undefined) => !!bin && spawnSync(bin, ['-v'], {stdio: 'ignore'}).status === 0;
const findNginx = (): string | undefined => [process.env.NGINX_BIN, ...NGINX_CANDIDATES].find(runs);

export const hasNginx = (): boolean => findNginx() !== undefined;

type Nginx = {bin: string; version: string; mimeTypes: string; brotliModules: string[] | undefined};

/** The binary, and from `nginx -V` its mime.types and brotli modules (both the static and the filter one, or none). */
function findBuild(): Nginx {
  const bin = findNginx();
  if (!bin) throw new Error(NGINX_MISSING);
  const info = spawnSync(bin, ['-V'], {encoding: 'utf8'}).stderr;
  const confPath = /--conf-path=(\S+)/.exec(info)?.[1] ?? '/etc/nginx/nginx.conf';
  const modulesPath = /--modules-path=(\S+)/.exec(info)?.[1] ?? '/usr/lib/nginx/modules';
  const modules = ['filter', 'static'].map((kind) => path.join(modulesPath, `ngx_http_brotli_${kind}_module.so`));
  return {
    bin,
    version: /nginx\/(\d+\.\d+\.\d+)/.exec(info)?.[1] ?? '0.0.0',
    mimeTypes: path.join(path.dirname(confPath), 'mime.types'),
    brotliModules: /brotli/.test(info) ? [] : modules.every((module) => existsSync(module)) ? modules : undefined,
  };
}

/** The main context, and the http-context preamble every configuration here shares: temp paths under `prefix`. */
function configuration(prefix: string, {mimeTypes, brotliModules}: Nginx, http: string, connections: number): string {
  const temp = (kind: string) => `${kind}_temp_path ${path.join(prefix, kind)};`;
  return `${(brotliModules ?? []).map((module) => `load_module ${module};`).join('\n')}
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log ${path.join(prefix, 'error.log')} warn;
events { worker_connections ${connections}; }
http {
  include ${mimeTypes};
  default_type application/octet-stream;
  # As Debian's nginx.conf has them (deploy/nginx.conf turns tcp_nopush off for its server).
  sendfile on;
  tcp_nopush on;
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  ${http}
}
`;
}

export type SiteBlock = {
  port: number;
  root: string;
  collector: string;
  /** The MCP server's URL (mcp/http.ts), "" for none. */
  mcp?: string;
  brotli: boolean;
  /** false: without the build's CSP include. */
  csp?: boolean;
  deployConf?: string;
  brotliConf?: string;
};

/** A server block like deploy/site.conf.example's, on loopback, without TLS. */
export function serverBlock(site: SiteBlock): string {
  return `
  server {
    listen 127.0.0.1:${site.port};
    server_name localhost;
    root ${site.root};
    set $docs_collector "${site.collector}";
    set $docs_mcp "${site.mcp ?? ''}";
    ${site.csp === false ? '' : `include ${CSP_INCLUDE};`}
    ${site.brotli ? `include ${site.brotliConf ?? BROTLI_CONF};` : ''}
    include ${site.deployConf ?? DEPLOY_CONF};
  }`;
}

/** A self-signed certificate for 127.0.0.1 and docs.example.com, made with openssl into `dir`. */
export function selfSignedCertificate(dir: string): {cert: string; key: string} {
  const [cert, key] = [path.join(dir, 'self-signed.pem'), path.join(dir, 'self-signed.key')];
  const options =
    '-x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1,DNS:docs.example.com';
  const made = spawnSync('openssl', ['req', ...options.split(' '), '-keyout', key, '-out', cert], {encoding: 'utf8'});
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate:\n${made.stderr}`);
  return {cert, key};
}

async function waitUntilServing(url: string, exited: () => boolean): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline && !exited();) {
    try {
      await fetch(url, {redirect: 'manual'});
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return false;
}

type HttpBlock = (ports: number[], prefix: string, nginx: Nginx) => string;
/** `configTest`: what `nginx -t` printed (to stderr); `errorLog`: the error log so far. */
type Started = {ports: number[]; brotli: boolean; configTest: string; errorLog(): string; stop(): Promise<void>};

/**
 * `nginx -t`, then nginx in the foreground over a fresh temp prefix (`stop` removes it), `http(ports…)` in its http
 * block; a port taken between picking and binding (by another process) gets the whole start retried with new ports.
 */
async function launch(portCount: number, http: HttpBlock, connections = 512): Promise<Started> {
  if (!existsSync(path.join(BUILD_DIR, 'index.html')) || !existsSync(CSP_INCLUDE))
    throw new Error(`No production build with ${CSP_INCLUDE}: run \`npm run build:e2e\` (or \`npm run build\`) first.`);
  const nginx = findBuild();
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'docs-nginx-'));
  const conf = path.join(prefix, 'nginx.conf');
  const errorLogFile = path.join(prefix, 'error.log');
  const errorLog = () => (existsSync(errorLogFile) ? readFileSync(errorLogFile, 'utf8') : '');
  try {
    for (let attempt = 1; ; attempt++) {
      const ports: number[] = [];
      while (ports.length < portCount) {
        const port = await freePort();
        if (!ports.includes(port)) ports.push(port);
      }
      writeFileSync(conf, configuration(prefix, nginx, http(ports, prefix, nginx), connections));
      const configTest = spawnSync(nginx.bin, ['-t', '-p', prefix, '-c', conf], {encoding: 'utf8'});
      if (configTest.status !== 0) throw new Error(`nginx -t rejected the configuration:\n${configTest.stderr}`);
      rmSync(errorLogFile, {force: true});
      const child = spawn(nginx.bin, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], {stdio: 'ignore'});
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const quit = async () => {
        if (child.exitCode === null) child.kill('SIGQUIT');
        await exited;
      };
      if (await waitUntilServing(`http://127.0.0.1:${ports[0]}/`, () => child.exitCode !== null)) {
        const brotli = nginx.brotliModules !== undefined;
        const stop = () => quit().then(() => rmSync(prefix, {recursive: true, force: true}));
        return {ports, brotli, configTest: configTest.stderr, errorLog, stop};
      }
      await quit();
      if (attempt < 3 && /Address already in use/.test(errorLog())) continue;
      throw new Error(`nginx did not start serving on port ${ports[0]}:\n${errorLog()}`);
    }
  } catch (error) {
    rmSync(prefix, {recursive: true, force: true});
    throw error;
  }
}

/** Server blocks over build/: `blocks(ports, brotli)` returns their text, one port each (bench/serve.ts compares). */
export async function startNginxWith(
  blockCount: number,
  blocks: (ports: number[], brotli: boolean) => string,
  connections = 1024,
): Promise<Started & {urls: string[]}> {
  const http: HttpBlock = (ports, _prefix, {brotliModules}) =>
    `include ${HTTP_CONF};\n${blocks(ports, brotliModules !== undefined)}`;
  const nginx = await launch(blockCount, http, connections);
  return {...nginx, urls: nginx.ports.map((port) => `http://127.0.0.1:${port}`)};
}

/** One server block per entry of `sites` (over build/, brotli when installed), each on its own port: `urls` by name. */
export async function startSites<K extends string>(sites: Record<K, Partial<SiteBlock>>) {
  const names = Object.keys(sites) as K[];
  const blocks = (ports: number[], brotli: boolean) =>
    names.map((name, at) => serverBlock({port: ports[at]!, root: BUILD_DIR, collector: '', brotli, ...sites[name]}));
  const nginx = await startNginxWith(names.length, (ports, brotli) => blocks(ports, brotli).join('\n'), 512);
  return {...nginx, urls: Object.fromEntries(names.map((name, at) => [name, nginx.urls[at]])) as Record<K, string>};
}

/** deploy/nginx.conf over build/ without a collector (/api/event answers 204), for bench/serve-build.ts. */
export async function startNginx() {
  const nginx = await startSites({site: {}});
  return {...nginx, urlWithoutCollector: nginx.urls.site};
}

/**
 * deploy/site.conf.example itself, only its paths, ports and certificate replaced (each must find its text, so the
 * example cannot drift from what is tested); IPv6 listens dropped, and the brotli include without the modules.
 */
export async function startExampleSite(): Promise<Started & {httpUrl: string; httpsUrl: string}> {
  const nginx = await launch(2, ([http, https], prefix, {version, brotliModules}) => {
    const {cert, key} = selfSignedCertificate(prefix);
    const modernHttp2 = version.localeCompare('1.25.1', undefined, {numeric: true}) >= 0;
    const replacements: [string | RegExp, string][] = [
      [/\/srv\/acme-docs\/build/g, BUILD_DIR],
      [/\/srv\/acme-docs\/deploy/g, DEPLOY_DIR],
      [/^\s*listen \[::\].*$/gm, ''],
      [/listen 443 ssl http2;/, `listen 127.0.0.1:${https} ssl${modernHttp2 ? '; http2 on' : ' http2'};`],
      [/listen 80;/, `listen 127.0.0.1:${http};`],
      ['/etc/ssl/certs/docs.example.com.pem', cert],
      ['/etc/ssl/private/docs.example.com.key', key],
    ];
    if (!brotliModules) replacements.push([/^.*include .*brotli\.conf;.*$/m, '']);
    let text = readFileSync(SITE_EXAMPLE, 'utf8');
    for (const [from, to] of replacements) {
      const next = text.replace(from, to);
      if (next === text) throw new Error(`deploy/site.conf.example no longer has ${from}: update startExampleSite`);
      text = next;
    }
    return text;
  });
  const [http, https] = nginx.ports;
  return {httpUrl: `http://127.0.0.1:${http}`, httpsUrl: `https://127.0.0.1:${https}`, ...nginx};
}

export type RawAnswer = {status: number; headers: [string, string][]; head: string};
export type RawExchange = RawAnswer & {body: string};

/** The status line, the headers (in order, repeats included) and the body, de-chunked, of an answer as received. */
function parseAnswer(received: string): RawExchange {
  const end = received.indexOf('\r\n\r\n');
  const head = end < 0 ? received : received.slice(0, end);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
  });
  const chunked = headers.some(([name, value]) => name === 'transfer-encoding' && /chunked/i.test(value));
  const body = end < 0 ? '' : received.slice(end + 4);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
  return {status, headers, head, body: chunked ? unchunk(body) : body};
}

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

type RawOptions = {localAddress?: string; servername?: string};
type RawParts = string | (string | Buffer)[];

/**
 * Sends `request` (raw, possibly malformed) from `localAddress` (in 127.0.0.0/8: nginx's per-client limits count it
 * apart), over TLS for an https `url` (any certificate, SNI `servername`); resolves once the answer's head is in
 * (`headOnly`), else once the server closes the connection (a reset after the answer counts as a close).
 */
function exchange(url: string, request: RawParts, {localAddress, servername}: RawOptions, headOnly: boolean) {
  const {protocol, hostname, port} = new URL(url);
  const target = {host: hostname, port: Number(port), localAddress};
  return new Promise<RawExchange>((resolve, reject) => {
    const send = () => [request].flat().forEach((part) => socket.write(part));
    const tls = {...target, servername, rejectUnauthorized: false};
    const socket = protocol === 'https:' ? tlsConnect(tls, send) : connect(target, send);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (!headOnly || !received.includes('\r\n\r\n')) return;
      resolve(parseAnswer(received));
      socket.destroy();
    });
    socket.on('error', (error) => headOnly && reject(error));
    socket.on('close', () => {
      if (!headOnly) resolve(parseAnswer(received));
      reject(new Error(`connection closed without an answer; received: ${received}`));
    });
  });
}

/** The head of the answer to `request`, without waiting for its body. */
export const rawRequest = (url: string, request: string, options: RawOptions = {}): Promise<RawAnswer> =>
  exchange(url, request, options, true);

/** The whole answer to `request` (ask for `Connection: close`). */
export const rawExchange = (url: string, request: RawParts, options: RawOptions = {}) =>
  exchange(url, request, options, false);
