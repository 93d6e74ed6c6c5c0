/**
 * A network that stops mid-page: an HTTP proxy on loopback that sends each HTML page up to `splitAt(html)` and holds
 * the rest until `release()`, as a mobile connection that stalls. Everything else passes through unchanged.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

export type StallingProxy = {origin: string; release: () => void; close: () => Promise<void>};

type Options = {upstream: string; splitAt: (html: string) => number};

export async function startStallingProxy({upstream, splitAt}: Options): Promise<StallingProxy> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const answer = await fetch(new URL(request.url ?? '/', upstream), {headers: {'accept-encoding': 'identity'}});
    const type = answer.headers.get('content-type') ?? 'application/octet-stream';
    const body = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, {'content-type': type, 'cache-control': 'no-store'});
    if (!type.startsWith('text/html')) {
      response.end(body);
      return;
    }
    const html = body.toString('utf8');
    const cut = splitAt(html);
    if (!(cut > 0 && cut < html.length)) {
      throw new Error(`cut ${cut} is not inside the page (${html.length} characters)`);
    }
    response.write(html.slice(0, cut));
    await released;
    response.end(html.slice(cut));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    release,
    close: () =>
      new Promise<void>((resolve, reject) => {
        release();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
