/**
 * A slow network in front of the docs server: an HTTP proxy on loopback that sends each HTML page in parts, cut
 * at `splitAt(html)`: the first part at once, each next one `stallMs` after the one before, the first stall counted
 * from when the page's stylesheet has been sent (before that the browser could not paint anyway). Everything else
 * passes through unchanged.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

export type StallingProxy = {origin: string; close: () => Promise<void>};

type Options = {upstream: string; splitAt: (html: string) => number[]; stallMs: number};

export async function startStallingProxy({upstream, splitAt, stallMs}: Options): Promise<StallingProxy> {
  let stylesheetSent: Promise<void> = Promise.resolve();
  let onStylesheetSent = () => {};

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const answer = await fetch(new URL(request.url ?? '/', upstream), {headers: {'accept-encoding': 'identity'}});
    const type = answer.headers.get('content-type') ?? 'application/octet-stream';
    const body = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, {'content-type': type, 'cache-control': 'no-store'});
    if (type.startsWith('text/css')) {
      response.end(body, onStylesheetSent);
      return;
    }
    if (!type.startsWith('text/html')) {
      response.end(body);
      return;
    }
    stylesheetSent = new Promise((resolve) => (onStylesheetSent = resolve));
    const html = body.toString('utf8');
    const cuts = splitAt(html);
    cuts.forEach((cut, index) => {
      if (!(cut > (cuts[index - 1] ?? 0) && cut < html.length)) {
        throw new Error(`cut ${cut} is not inside the page (${html.length} characters) after the cut before it`);
      }
    });
    const parts = [0, ...cuts, html.length];
    response.write(html.slice(0, parts[1]));
    await stylesheetSent;
    for (let index = 1; index < parts.length - 1; index += 1) {
      await new Promise((resolve) => setTimeout(resolve, stallMs));
      response.write(html.slice(parts[index], parts[index + 1]));
    }
    response.end();
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
