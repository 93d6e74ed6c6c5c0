/**
 * Starts a real nginx on loopback with deploy/nginx.conf, included unchanged in server blocks
 * shaped like deploy/site.conf.example, serving build/ (tests/nginx.spec.ts). Everything nginx
 * writes (pid, logs, temp files) goes to a temp directory. A missing nginx is an error, never a skip.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync} from 'node:fs';
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REPO_DIR = path.resolve(__dirname, '../..');
export const BUILD_DIR = path.join(REPO_DIR, 'build');
export const CSP_INCLUDE = path.join(BUILD_DIR, '.nginx/csp.conf');
const DEPLOY_CONF = path.join(REPO_DIR, 'deploy/nginx.conf');
const BROTLI_CONF = path.join(REPO_DIR, 'deploy/brotli.conf');

export type CollectedEvent = {method: string; url: string; headers: IncomingHttpHeaders; body: string};

export type NginxServer = {
  /** deploy/nginx.conf with a collector upstream (a local recorder, `events`). */
  url: string;
  /** The same rules with `$docs_collector ""`: /api/event answers 204. */
  urlWithoutCollector: string;
  /** The same rules over a temp root holding sample .md/.txt/.yaml files. */
  urlSamples: string;
  brotli: boolean;
  events: CollectedEvent[];
  stop: () => Promise<void>;
};

const NGINX_MISSING = `nginx is not installed (or not on PATH): the nginx tests need it.
Install it: Debian/Ubuntu \`sudo apt-get install nginx\` (plus libnginx-mod-http-brotli-filter for brotli),
macOS \`brew install nginx\`; or set NGINX_BIN=/path/to/nginx.`;

function findNginx(): string | undefined {
  const candidates = [process.env.NGINX_BIN, 'nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/opt/homebrew/bin/nginx'];
  return candidates.find((candidate) => candidate && spawnSync(candidate, ['-v'], {stdio: 'ignore'}).status === 0);
}

export const hasNginx = (): boolean => findNginx() !== undefined;

function nginxBinary(): string {
  const found = findNginx();
  if (!found) throw new Error(NGINX_MISSING);
  return found;
}

/** `--conf-path` and `--modules-path` from `nginx -V`, to find mime.types and the brotli module. */
function buildPaths(bin: string): {mimeTypes: string; brotliModule: string | undefined} {
  const info = spawnSync(bin, ['-V'], {encoding: 'utf8'}).stderr;
  const confPath = /--conf-path=(\S+)/.exec(info)?.[1] ?? '/etc/nginx/nginx.conf';
  const modulesPath = /--modules-path=(\S+)/.exec(info)?.[1] ?? '/usr/lib/nginx/modules';
  const brotliModule = path.join(modulesPath, 'ngx_http_brotli_filter_module.so');
  const builtIn = /brotli/.test(info);
  return {
    mimeTypes: path.join(path.dirname(confPath), 'mime.types'),
    brotliModule: builtIn ? '' : existsSync(brotliModule) ? brotliModule : undefined,
  };
}

function serverBlock({port, root, collector, brotli}: {port: number; root: string; collector: string; brotli: boolean}): string {
  return `
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    root ${root};
    set $docs_collector "${collector}";
    include ${CSP_INCLUDE};
    ${brotli ? `include ${BROTLI_CONF};` : ''}
    include ${DEPLOY_CONF};
  }`;
}

async function startCollector(events: CollectedEvent[]): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      events.push({method: request.method ?? '', url: request.url ?? '', headers: request.headers, body});
      response.writeHead(202, {'content-type': 'text/plain'}).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function waitUntilServing(url: string, process: ChildProcess, errorLog: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) {
      break;
    }
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

/** Starts nginx on `basePort`, `basePort + 1` and `basePort + 2`. */
export async function startNginx(basePort: number): Promise<NginxServer> {
  const bin = nginxBinary();
  if (!existsSync(path.join(BUILD_DIR, 'index.html')) || !existsSync(CSP_INCLUDE)) {
    throw new Error(`No production build with ${path.relative(REPO_DIR, CSP_INCLUDE)}: run \`npm run build:e2e\` (or \`npm run build\`) first.`);
  }
  const {mimeTypes, brotliModule} = buildPaths(bin);
  const brotli = brotliModule !== undefined;
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'docs-nginx-'));
  const samples = path.join(prefix, 'samples');
  spawnSync('mkdir', ['-p', samples]);
  writeFileSync(path.join(samples, 'page.md'), '# Sample\n\nMarkdown twin of a page.\n');
  writeFileSync(path.join(samples, 'notes.txt'), 'Plain text ✓\n');
  writeFileSync(path.join(samples, 'spec.yaml'), 'openapi: 3.1.0\n');
  writeFileSync(path.join(samples, 'index.html'), '<!doctype html><title>Samples</title>');
  writeFileSync(path.join(samples, '404.html'), '<!doctype html><title>Not found</title>');

  const events: CollectedEvent[] = [];
  const collector = await startCollector(events);
  const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/api/event`;
  const errorLog = path.join(prefix, 'error.log');
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `${brotliModule ? `load_module ${brotliModule};` : ''}
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log ${errorLog} warn;
events { worker_connections 256; }
http {
  include ${mimeTypes};
  default_type application/octet-stream;
  sendfile on;
  access_log ${path.join(prefix, 'access.log')};
  client_body_temp_path ${path.join(prefix, 'client_body')};
  proxy_temp_path ${path.join(prefix, 'proxy')};
  fastcgi_temp_path ${path.join(prefix, 'fastcgi')};
  uwsgi_temp_path ${path.join(prefix, 'uwsgi')};
  scgi_temp_path ${path.join(prefix, 'scgi')};
  ${serverBlock({port: basePort, root: BUILD_DIR, collector: collectorUrl, brotli})}
  ${serverBlock({port: basePort + 1, root: BUILD_DIR, collector: '', brotli})}
  ${serverBlock({port: basePort + 2, root: samples, collector: '', brotli})}
}
`,
  );
  const test = spawnSync(bin, ['-t', '-p', prefix, '-c', conf], {encoding: 'utf8'});
  if (test.status !== 0) {
    throw new Error(`nginx -t rejected the configuration:\n${test.stderr}`);
  }
  const child = spawn(bin, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], {stdio: ['ignore', 'ignore', 'pipe']});
  const url = `http://127.0.0.1:${basePort}`;
  try {
    await waitUntilServing(url, child, errorLog);
  } catch (error) {
    child.kill('SIGQUIT');
    collector.close();
    rmSync(prefix, {recursive: true, force: true});
    throw error;
  }
  return {
    url,
    urlWithoutCollector: `http://127.0.0.1:${basePort + 1}`,
    urlSamples: `http://127.0.0.1:${basePort + 2}`,
    brotli,
    events,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      await new Promise((resolve) => collector.close(resolve));
      rmSync(prefix, {recursive: true, force: true});
    },
  };
}
