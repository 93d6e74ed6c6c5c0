// core's prefetch helper (plugins/bundle/prefetch-once.ts), asked once per file.
import prefetch from '@docusaurus/core/lib/client/prefetch.js';

const asked = new Map<string, Promise<void>>();

export default function prefetchOnce(url: string): Promise<void> {
  let request = asked.get(url);
  if (!request) asked.set(url, (request = prefetch(url)));
  return request;
}
