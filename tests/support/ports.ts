import {createServer} from 'node:net';

/** A free loopback port (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive free loopback ports (for a server that listens on several, like
 * tests/support/nginx.ts). The OS picks the first from its ephemeral range, so parallel runs and
 * other agents' fixed ports do not collide with it.
 */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const first = await freePort();
    const rest = await Promise.all(Array.from({length: count - 1}, (_, index) => isFree(first + 1 + index)));
    if (rest.every(Boolean)) return first;
  }
  throw new Error(`No ${count} consecutive free loopback ports found.`);
}
