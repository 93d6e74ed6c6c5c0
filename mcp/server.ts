/** The docs' MCP server: four tools over one production build (see README, "Docs for coding agents"). */
import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {z} from 'zod';

import {SITE} from '../src/constants/site';
import type {BuiltDocs} from './docs';

/** Caps on what a caller may send: a search query the box would cut anyway, a URL, an operation id. */
export const LIMITS = {query: 500, url: 2_000, operation: 300, results: 20};

const json = (value: unknown): CallToolResult => ({
  content: [{type: 'text', text: JSON.stringify(value, null, 2)}],
  structuredContent: value as Record<string, unknown>,
});
const failure = (message: string): CallToolResult => ({isError: true, content: [{type: 'text', text: message}]});

export function createDocsServer(docs: BuiltDocs): McpServer {
  const server = new McpServer({name: `${SITE.title} (MCP)`, version: '1.0.0'});

  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        'Searches the documentation as its search box does (same index, same ranking). Returns up to `limit` results, each with the page title, the URL of the page or section, the section and a short snippet.',
      inputSchema: {
        query: z
          .string()
          .trim()
          .min(1)
          .max(LIMITS.query)
          .describe('What to look for, in your own words or by name (an endpoint, an error code, an SDK method).'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(LIMITS.results)
          .optional()
          .describe(`How many results, 1–${LIMITS.results} (default 8).`),
      },
    },
    async ({query, limit}) => json({results: await docs.search(query, limit)}),
  );

  server.registerTool(
    'get_page',
    {
      title: 'Get a page as Markdown',
      description: `Returns a documentation page as Markdown (the page's Markdown twin), by its canonical URL (${SITE.url}/basics/sdk) or its path (/basics/sdk). Every code sample in it has been run against the API's contract.`,
      inputSchema: {
        url: z
          .string()
          .trim()
          .min(1)
          .max(LIMITS.url)
          .describe('The page URL or path, as search_docs returns it; a #section is ignored.'),
      },
    },
    async ({url}) => {
      const page = docs.page(url);
      return page
        ? {content: [{type: 'text', text: page.markdown}]}
        : failure(
            `No documentation page at "${url}". Use search_docs to find one; pages are listed at ${SITE.url}/llms.txt.`,
          );
    },
  );

  server.registerTool(
    'list_operations',
    {
      title: 'List the API operations',
      description:
        'Lists every operation of the API (from the served OpenAPI document): operationId, method, path, summary and the OAuth scopes it needs.',
      inputSchema: {},
    },
    async () =>
      json({
        operations: docs
          .operations()
          .map(({operationId, method, path, summary, scopes}) => ({operationId, method, path, summary, scopes})),
      }),
  );

  server.registerTool(
    'get_operation',
    {
      title: 'Get one API operation',
      description:
        'Returns one API operation by operationId (createOrder) or "METHOD /path" (POST /v1/orders): the scopes it needs, its request body and responses as in the OpenAPI document, and the pages (and sections) that document it.',
      inputSchema: {
        operation: z
          .string()
          .trim()
          .min(1)
          .max(LIMITS.operation)
          .describe('An operationId or "METHOD /path", as list_operations returns them.'),
      },
    },
    async ({operation}) => {
      const found = docs.operation(operation);
      return found ? json(found) : failure(`No API operation "${operation}". list_operations names every one.`);
    },
  );

  return server;
}
