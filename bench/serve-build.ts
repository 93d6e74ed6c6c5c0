/**
 * Serves build/ with compression for the benches (`docusaurus serve` sends none).
 * nginx with deploy/nginx.conf when nginx is installed (detected at run time), else a small Node server:
 * gzip (level 6, like a typical server) for text types, clean URLs (`/x` → `x.html`, `/` → `index.html`),
 * 404.html with status 404, long-lived caching for content-hashed assets.
 */
import {createReadStream, existsSync, statSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import path from 'node:path';
import {createGzip} from 'node:zlib';
import {BUILD_DIR, hasNginx, startNginx} from '../tests/support/nginx';
import {freePort} from '../lib/ports';

export {freePort};

export const ROOT = path.resolve(__dirname, '..');

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

export async function serveWithNode(buildDir: string): Promise<Served> {
  const server: Server = createServer((request, response) => {
    const found = resolvePath(buildDir, request.url ?? '/');
    const file = found ?? path.join(buildDir, '404.html');
    const status = found ? 200 : 404;
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const headers: Record<string, string> = {'Content-Type': type, Vary: 'Accept-Encoding'};
    headers['Cache-Control'] = file.includes(`${path.sep}assets${path.sep}`)
      ? 'public, max-age=31536000, immutable'
      : 'no-cache';
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

/**
 * The production server of deploy/nginx.conf, started exactly as tests/nginx.spec.ts starts it
 * (server blocks shaped like deploy/site.conf.example, the build's csp.conf, brotli when present).
 * Analytics go to the collector-less block, which answers 204.
 */
async function serveWithNginx(): Promise<Served> {
  const nginx = await startNginx();
  return {
    origin: nginx.urlWithoutCollector,
    how: `nginx with deploy/nginx.conf${nginx.brotli ? ' (gzip and brotli)' : ' (gzip)'}, as tests/support/nginx.ts starts it`,
    close: nginx.stop,
  };
}

/** nginx when it is installed (build/ must be the repository's own); else the Node server. */
export async function serveBuild(buildDir: string): Promise<Served> {
  if (buildDir === BUILD_DIR && hasNginx()) {
    return serveWithNginx();
  }
  return serveWithNode(buildDir);
}
