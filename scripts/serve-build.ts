/**
 * Serves build/ with compression for the benches (`docusaurus serve` sends none).
 * nginx with deploy/nginx.conf when both exist (detected at run time), else a small Node server:
 * gzip (level 6, like a typical server) for text types, clean URLs (`/x` → `x.html`, `/` → `index.html`),
 * 404.html with status 404, long-lived caching for content-hashed assets.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {createGzip} from 'node:zlib';
import {freePort} from '../tests/support/ports';

export {freePort};

export const ROOT = path.resolve(__dirname, '..');
export const NGINX_CONF = path.join(ROOT, 'deploy/nginx.conf');

export type Served = {origin: string; how: string; close: () => Promise<void>};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = /^(text\/|application\/(json|xml|yaml)|image\/svg)/;

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile();
}

/** The file a URL path maps to, with clean URLs; null when there is none. */
export function resolvePath(buildDir: string, urlPath: string): string | null {
  const clean = decodeURIComponent(urlPath.split(/[?#]/)[0]!);
  const target = path.join(buildDir, path.normalize(clean));
  if (!target.startsWith(buildDir)) return null;
  for (const candidate of [target, `${target}.html`, path.join(target, 'index.html')]) {
    if (isFile(candidate)) return candidate;
  }
  return null;
}

async function serveWithNode(buildDir: string): Promise<Served> {
  const server: Server = createServer((request, response) => {
    const found = resolvePath(buildDir, request.url ?? '/');
    const file = found ?? path.join(buildDir, '404.html');
    const status = found ? 200 : 404;
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const headers: Record<string, string> = {'Content-Type': type, Vary: 'Accept-Encoding'};
    headers['Cache-Control'] = file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
    const gzip = COMPRESSIBLE.test(type) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (gzip) headers['Content-Encoding'] = 'gzip';
    response.writeHead(status, headers);
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const stream = createReadStream(file);
    (gzip ? stream.pipe(createGzip({level: 6})) : stream).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    how: 'Node static server (node:http + node:zlib gzip level 6, clean URLs, 404.html)',
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function hasNginx(): boolean {
  return spawnSync('nginx', ['-v'], {stdio: 'ignore'}).status === 0;
}

/**
 * Runs nginx with deploy/nginx.conf, its `listen` pointed at a free loopback port and its `root` at
 * buildDir. A file with only `server { … }` blocks is wrapped in a minimal `events {} http {}`.
 */
async function serveWithNginx(buildDir: string): Promise<Served> {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(tmpdir(), 'docs-bench-nginx-'));
  mkdirSync(path.join(prefix, 'logs'));
  let conf = readFileSync(NGINX_CONF, 'utf8')
    .replace(/^(\s*)listen\s+[^;]+;/gm, `$1listen 127.0.0.1:${port};`)
    .replace(/^(\s*)root\s+[^;]+;/gm, `$1root ${buildDir};`)
    .replace(/^\s*(user|pid|error_log|access_log|daemon)\s+[^;]+;/gm, '')
    .replace(/include\s+mime\.types;/g, 'include /etc/nginx/mime.types;')
    .replace(/^\s*listen\s+\[::\][^;]*;/gm, '');
  // Only one listen per server block survives the rewrite.
  conf = conf.replace(/(listen 127\.0\.0\.1:\d+;)([\s\S]*?)\s*listen 127\.0\.0\.1:\d+;/g, '$1$2');
  if (!/^\s*http\s*\{/m.test(conf)) {
    conf = `events {}\nhttp {\n  include /etc/nginx/mime.types;\n  default_type application/octet-stream;\n${conf}\n}\n`;
  }
  const header = `daemon off;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/logs/error.log;\n`;
  writeFileSync(path.join(prefix, 'nginx.conf'), header + conf.replace(/http\s*\{/, `http {\n  access_log off;`));
  const child: ChildProcess = spawn('nginx', ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], {stdio: 'inherit'});
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await fetch(`${origin}/`);
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill();
        throw new Error(`nginx did not start with ${NGINX_CONF} (see ${prefix}/logs/error.log)`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    origin,
    how: `nginx with deploy/nginx.conf (listen and root rewritten for the bench)`,
    close: async () => {
      child.kill('SIGQUIT');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(prefix, {recursive: true, force: true});
    },
  };
}

export async function serveBuild(buildDir: string): Promise<Served> {
  if (existsSync(NGINX_CONF) && hasNginx()) {
    return serveWithNginx(buildDir);
  }
  return serveWithNode(buildDir);
}
