/** The docs' MCP server: five read-only tools over one production build (see README, "Docs for coding agents"). */
import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import type {CallToolResult, ToolAnnotations} from '@modelcontextprotocol/sdk/types.js';
import {Document, isScalar, isSeq, visit} from 'yaml';
import {z} from 'zod';

import {BRAND, SITE} from '../src/constants/site';
import type {BuiltDocs} from './docs';
import {schemaText, type OperationDetail} from './operations';
import {CHARS_PER_TOKEN, DEFAULT_PAGE_TOKENS} from './sections';

/** Caps on what a caller may send: a search query the box would cut anyway, a URL, an operation id. */
export const LIMITS = {
  query: 500,
  url: 2_000,
  operation: 300,
  results: 20,
  languages: 5,
  // The least max_tokens that holds a section's header and the note of what it leaves out.
  minTokens: 100,
  maxTokens: 100_000,
};

/** How the tools fit together, and what the API does not offer: sent to the client at initialization. */
export const INSTRUCTIONS = `Answers about the ${BRAND} eSIM partner API from its documentation (${SITE.url}) and its OpenAPI contract.
Spend few calls and few tokens:
1. search_docs with the reader's words: each hit has the page, the section heading, the URL with its #anchor and the section's opening text. Often that text answers.
2. get_page with a hit's URL including its #anchor returns only that section with its sub-sections; add languages (e.g. ["python"]) to keep one language's code tabs and max_tokens to cap it (what is left out is listed with its URL). A page without #anchor larger than ${DEFAULT_PAGE_TOKENS} tokens answers its opening and the URL of each section.
3. For an endpoint, get_operation (operationId, "POST /orders", or a concrete URL) gives scopes, base URLs, every parameter, resolved request and answer schemas, error codes with their retry policy, an example, and the sections that document it. get_schema gives one schema or a webhook event's payload. list_operations lists every operation.
The API does not offer: browser or mobile calls (credentials are server-side only; use the iframe widget), other grant types than OAuth 2.0 client credentials, offset pagination (cursor only), real eSIMs in the sandbox, invoices, credentials, team or other Dashboard settings (Dashboard only; list_operations is every operation there is). Facts not in these docs are not part of the API: say so rather than guess.`;

const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** YAML with lists of scalars and small flat maps on one line: far fewer characters than indented JSON. */
export function compactYaml(value: unknown): string {
  const document = new Document(value, {aliasDuplicateObjects: false});
  visit(document, {
    Seq: (_key, node) => {
      if (node.items.every((item) => isScalar(item) && String(item.value).length <= 40)) node.flow = true;
    },
    Map: (_key, node) => {
      const flat = (value: unknown) =>
        (isScalar(value) && !String(value.value).includes('\n')) ||
        (isSeq(value) && value.items.every((item) => isScalar(item)));
      if (node.items.length <= 5 && node.items.every((pair) => flat(pair.value))) node.flow = true;
    },
  });
  return document.toString({lineWidth: 0, flowCollectionPadding: false});
}

/** Structured answers: compact YAML for the reader (fewer tokens than JSON), the object for the client. */
const structured = (value: object, text: string = compactYaml(value)): CallToolResult => ({
  content: [{type: 'text', text}],
  structuredContent: value as Record<string, unknown>,
});
/** The same answer with every JSON schema in it written as schemaText: a third of the characters. */
function readable(value: unknown, key = ''): unknown {
  if (/^(schema|errorSchema|objectSchema)$/.test(key) && value !== null && typeof value === 'object')
    return schemaText(value);
  if (key === 'errors' && Array.isArray(value))
    return Object.fromEntries(
      (value as OperationDetail['errors']).map(({status, description, codes, schema}) => [
        status,
        codes.length
          ? codes.map(({code, retry, fix}) => `${code} (retry: ${retry}): ${fix}`)
          : {description, ...(schema ? {schema: schemaText(schema)} : {})},
      ]),
    );
  if (key === 'parameters' && Array.isArray(value))
    return (value as OperationDetail['parameters']).map(
      (parameter) =>
        `${parameter.name} (${parameter.in}${parameter.required ? ', required' : ''}): ${parameter.type}${
          parameter.description ? `. ${parameter.description.replace(/\s+/g, ' ')}` : ''
        }${parameter.example !== undefined ? ` Example: ${JSON.stringify(parameter.example)}` : ''}`,
    );
  if (Array.isArray(value)) return value.map((item) => readable(item));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, readable(item, name)]));
  return value;
}

const failure = (message: string): CallToolResult => ({isError: true, content: [{type: 'text', text: message}]});
const nearest = (urls: string[]) =>
  urls.length ? `Did you mean: ${urls.join(', ')}? Or use search_docs.` : 'Use search_docs to find one.';

/**
 * A tool's answer, or its failure as the caller should read it: the message without this machine's paths, and the
 * whole error in the server's log for its operator. An aborted call (its client left) stays aborted.
 */
async function guard(
  docs: BuiltDocs,
  signal: AbortSignal,
  answer: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await answer();
  } catch (error) {
    // Cancelled (its client left, or sent notifications/cancelled): nobody reads the answer, nothing to log.
    if (signal.aborted) throw error;
    console.error(error);
    return failure((error instanceof Error ? error.message : String(error)).replaceAll(docs.buildDir, 'the build'));
  }
}

// A new schema at each use: one instance used twice becomes a `$ref` in the tool's JSON Schema.
const anyJson = () => z.unknown();
const searchHit = z.object({title: z.string(), section: z.string().nullable(), url: z.string(), text: z.string()});
const operationRow = z.object({
  operationId: z.string(),
  method: z.string(),
  path: z.string(),
  summary: z.string(),
  scopes: z.array(z.string()),
});

export function createDocsServer(docs: BuiltDocs): McpServer {
  const server = new McpServer({name: `${SITE.title} (MCP)`, version: '1.1.0'}, {instructions: INSTRUCTIONS});

  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        'Searches the documentation as its search box does (same index, same ranking). Returns up to `limit` results, one per URL, each with the page title, the section heading, the URL with its #anchor (pass it to get_page) and the opening text of that section.',
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
      outputSchema: {results: z.array(searchHit)},
      annotations: {title: 'Search the docs', ...READ_ONLY},
    },
    async ({query, limit}, {signal}) =>
      guard(docs, signal, async () => {
        const results = await docs.search(query, limit, signal);
        const text = results.length
          ? results
              .map((hit) => `- ${hit.title}${hit.section ? ` › ${hit.section}` : ''}: ${hit.url}\n  ${hit.text}`)
              .join('\n')
          : `Nothing matches "${query}". Try other words, or list_operations for endpoints.`;
        return structured({results}, text);
      }),
  );

  server.registerTool(
    'get_page',
    {
      title: 'Get a page or one section as Markdown',
      description: `Returns documentation as Markdown (from the page's Markdown twin) by URL (${SITE.url}/basics/sdk#error-handling) or path (/basics/sdk#error-handling). With a #anchor, only that section and its sub-sections; without one, a page larger than ${DEFAULT_PAGE_TOKENS} tokens is cut to that unless max_tokens asks for more. max_tokens trims it by whole sub-sections and lists the ones left out with their URLs; languages keeps only those code tabs (e.g. ["python"]). Every code sample has been run against the API's contract.`,
      inputSchema: {
        url: z
          .string()
          .trim()
          .min(1)
          .max(LIMITS.url)
          .describe('A URL or path of this site, with its #anchor as search_docs returns it.'),
        max_tokens: z
          .number()
          .int()
          .min(LIMITS.minTokens)
          .max(LIMITS.maxTokens)
          .optional()
          .describe(
            `Upper bound on the answer (about ${CHARS_PER_TOKEN} characters a token); the rest is named, not sent.`,
          ),
        languages: z
          .array(z.string().trim().min(1).max(30))
          .max(LIMITS.languages)
          .optional()
          .describe('Keep only these languages in code tabs: curl, python, typescript, javascript.'),
      },
      outputSchema: {
        url: z.string(),
        title: z.string(),
        section: z.string().nullable(),
        markdown: z.string(),
        leftOut: z.array(z.object({heading: z.string(), url: z.string()})),
      },
      annotations: {title: 'Get a page or section', ...READ_ONLY},
    },
    async ({url, max_tokens: maxTokens, languages}, {signal}) =>
      guard(docs, signal, async () => {
        if (docs.isForeign(url))
          return failure(
            `"${url}" is not on this site: get_page reads only ${SITE.url} pages. Use search_docs to find one.`,
          );
        const page = docs.page(url, {maxTokens, languages});
        if (!page) return failure(`No documentation page at "${url}". ${nearest(docs.nearestPages(url))}`);
        if ('missingAnchor' in page)
          return failure(
            `The page has no section "#${page.missingAnchor}". Did you mean: ${page.anchors.slice(0, 3).join(', ')}? All its sections: ${page.anchors.map((anchor) => anchor.replace(/^[^#]*/, '')).join(' ')}.`,
          );
        return structured(page, page.markdown);
      }),
  );

  server.registerTool(
    'list_operations',
    {
      title: 'List the API operations',
      description:
        'Lists every operation of the API (from the served OpenAPI document): operationId, method, path, summary and the OAuth scopes it needs.',
      inputSchema: {},
      outputSchema: {operations: z.array(operationRow)},
      annotations: {title: 'List the API operations', ...READ_ONLY},
    },
    async (_arguments, {signal}) =>
      guard(docs, signal, async () => {
        const operations = docs
          .operations()
          .map(({operationId, method, path, summary, scopes}) => ({operationId, method, path, summary, scopes}));
        return structured(
          {operations},
          operations
            .map((row) => `${row.method} ${row.path}  ${row.operationId}: ${row.summary} [${row.scopes.join(', ')}]`)
            .join('\n'),
        );
      }),
  );

  server.registerTool(
    'get_operation',
    {
      title: 'Get one API operation',
      description:
        'Returns one API operation, complete: summary and description, scopes, the URL per environment, every parameter (path, query, header such as Idempotency-Key) with type and whether required, the request and answer schemas resolved, the error codes this operation can answer, per status, with their retry policy (same_key, after_fix, new_token, never), an example request and answer, and the URLs of the sections that document it. Names match loosely: operationId in any case, "POST /orders", "GET /v1/esims/8944000000123456783".',
      inputSchema: {
        operation: z
          .string()
          .trim()
          .min(1)
          .max(LIMITS.operation)
          .describe('An operationId, "METHOD /path" (with or without /v1; a concrete path works), or a path.'),
      },
      outputSchema: {
        operationId: z.string(),
        method: z.string(),
        path: z.string(),
        summary: z.string(),
        description: z.string(),
        scopes: z.array(z.string()),
        urls: z.array(z.object({environment: z.string(), url: z.string()})),
        parameters: z.array(
          z.object({
            name: z.string(),
            in: z.string(),
            required: z.boolean(),
            type: z.string(),
            description: z.string().optional(),
            example: anyJson().optional(),
          }),
        ),
        requestBody: anyJson(),
        responses: z.array(
          z.object({
            status: z.string(),
            description: z.string(),
            schema: anyJson().optional(),
            example: anyJson().optional(),
          }),
        ),
        errors: z.array(
          z.object({
            status: z.string(),
            description: z.string().optional(),
            codes: z.array(z.object({code: z.string(), retry: z.string(), fix: z.string()})),
            schema: anyJson().optional(),
          }),
        ),
        retryPolicies: z.record(z.string()),
        errorSchema: anyJson(),
        example: z.object({request: z.string(), response: anyJson()}),
        documentedAt: z.array(z.object({url: z.string(), section: z.string()})),
      },
      annotations: {title: 'Get one API operation', ...READ_ONLY},
    },
    async ({operation}, {signal}) =>
      guard(docs, signal, async () => {
        const match = docs.operation(operation);
        return match.found
          ? structured(match.found, compactYaml(readable(match.found)))
          : failure(
              `No API operation "${operation}". Did you mean: ${match.suggestions.join(', ')}? list_operations names every one.`,
            );
      }),
  );

  server.registerTool(
    'get_schema',
    {
      title: 'Get a schema or webhook event payload',
      description:
        'Returns one schema of the API contract (Order, Esim, ErrorEnvelope, …, any case) or a webhook event payload by its type (esim.activated), resolved: no $ref left, with the event example and the schema of its data.object.',
      inputSchema: {
        name: z.string().trim().min(1).max(LIMITS.operation).describe('A schema name or a webhook event type.'),
      },
      outputSchema: {
        name: z.string(),
        kind: z.enum(['schema', 'webhook event']),
        summary: z.string().optional(),
        schema: anyJson(),
        example: anyJson().optional(),
        objectSchema: anyJson().optional(),
      },
      annotations: {title: 'Get a schema', ...READ_ONLY},
    },
    async ({name}, {signal}) =>
      guard(docs, signal, async () => {
        const match = docs.schema(name);
        return 'found' in match
          ? structured(match.found, compactYaml(readable(match.found)))
          : failure(`No schema or webhook event "${name}". Did you mean: ${match.suggestions.join(', ')}?`);
      }),
  );

  return server;
}
