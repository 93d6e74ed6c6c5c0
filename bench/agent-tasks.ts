/**
 * `npm run bench:agent-tasks [-- --build <dir>] [-- --stdio <server.ts>]`: ten integration tasks
 * played through the docs' MCP tools as an assistant would (search, then a section or an
 * operation), with the official SDK client. For each: the calls, the characters returned, and
 * whether the facts the task needs are in them. "before" plays the same calls the way the server
 * answered them before sections existed (get_page ignored #anchor, max_tokens and languages, so a
 * section was its whole page; get_operation had no parameters, resolved schemas or retry policies,
 * so an operation was the page that documents it); "after" plays them as written. Goal: every fact present, a third
 * of the characters or less.
 */
import path from 'node:path';
import {parseArgs} from 'node:util';

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {InMemoryTransport} from '@modelcontextprotocol/sdk/inMemory.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';

import {BuiltDocs} from '../mcp/docs';
import {createDocsServer, LIMITS} from '../mcp/server';

const ROOT = path.resolve(__dirname, '..');

/**
 * A call; `open` takes the URL of a hit of the previous search (or of a section a trimmed page
 * left out), as an agent picks one: the first whose page title or section heading holds that
 * text, else the one at that rank, counting hits on a section (with #anchor) first.
 */
type Step =
  | {tool: 'search_docs'; query: string; limit?: number}
  | {tool: 'get_page'; url?: string; open?: number | string; languages?: string[]; max_tokens?: number}
  | {tool: 'get_operation'; operation: string}
  | {tool: 'get_schema'; name: string};

/** Facts are strings of the API (domain brief) an answer must contain, matched case-insensitively. */
type Task = {name: string; steps: Step[]; facts: string[]};

const TASKS: Task[] = [
  {
    name: 'Node: a token, then an order with an idempotency key, polled until ready',
    steps: [
      {tool: 'search_docs', query: 'request an access token', limit: 5},
      {tool: 'get_page', open: 0, languages: ['typescript'], max_tokens: 800},
      {tool: 'get_operation', operation: 'post /orders'},
      {tool: 'get_operation', operation: 'GET /v1/orders/ord_01JB7Z3KQ8'},
    ],
    facts: ['/oauth/token', 'orders:write', 'Idempotency-Key', 'processing', 'completed', 'order.completed'],
  },
  {
    name: 'Python: verify a webhook',
    steps: [
      {tool: 'search_docs', query: 'verify the webhook signature HMAC', limit: 5},
      {tool: 'get_page', open: 0, languages: ['python']},
    ],
    facts: ['X-Webhook-Signature', 'X-Webhook-Timestamp', 'hmac', 'raw', '300', 'compare_digest'],
  },
  {
    name: 'The scopes a refund needs',
    steps: [{tool: 'get_operation', operation: 'POST /refunds'}],
    facts: ['refunds:write', 'esim_not_refundable', 'Idempotency-Key'],
  },
  {
    name: 'Usage that does not update',
    steps: [
      {tool: 'search_docs', query: 'usage not updating', limit: 5},
      {tool: 'get_page', open: 0, max_tokens: 1500},
    ],
    facts: ['15 min', 'updated_at'],
  },
  {
    name: 'Handling 429',
    steps: [
      {tool: 'search_docs', query: 'rate limit 429 Retry-After', limit: 5},
      {tool: 'get_page', open: 0, max_tokens: 1500},
    ],
    facts: ['rate_limited', 'Retry-After', 'X-RateLimit-Remaining'],
  },
  {
    name: 'Embed the iframe',
    steps: [
      {tool: 'search_docs', query: 'iframe embed code', limit: 5},
      {tool: 'get_page', open: 'iframe', max_tokens: 250},
      {tool: 'get_page', open: 'create a session', languages: ['javascript'], max_tokens: 1400},
      {tool: 'get_page', open: 'embed the iframe', max_tokens: 1200},
    ],
    facts: ['widget-sessions', 'session=', 'allow-scripts', 'allowed_origins'],
  },
  {
    name: 'What an error code means (esim_not_refundable)',
    steps: [{tool: 'search_docs', query: 'esim_not_refundable', limit: 3}],
    facts: ['esim_not_refundable', 'refund'],
  },
  {
    name: 'Invoices as PDF',
    steps: [
      {tool: 'search_docs', query: 'download invoice PDF', limit: 5},
      {tool: 'get_page', open: 0, max_tokens: 1000},
    ],
    // No operation serves invoices: the answer is the Dashboard's Billing section.
    facts: ['invoice', 'Dashboard'],
  },
  {
    name: "Python: page through an order's eSIMs",
    steps: [
      {tool: 'search_docs', query: 'list the eSIMs of an order pagination cursor', limit: 5},
      {tool: 'get_operation', operation: 'listEsims'},
    ],
    facts: ['order_id', 'cursor', 'next_cursor', 'has_more', 'limit'],
  },
  {
    name: 'A top-up with idempotency',
    steps: [
      {tool: 'search_docs', query: 'top up an eSIM', limit: 3},
      {tool: 'get_operation', operation: 'POST /esims/{iccid}/topups'},
    ],
    facts: ['Idempotency-Key', 'package_id', 'topup_not_allowed', 'esims:write'],
  },
];

type Mode = 'before' | 'after';
type Hit = {title: string; section: string | null; url: string};
type Played = {calls: string[]; chars: number; text: string};

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

async function play(client: Client, docs: BuiltDocs, task: Task, mode: Mode): Promise<Played> {
  const calls: string[] = [];
  let chars = 0;
  let text = '';
  let hits: Hit[] = [];
  for (const step of task.steps) {
    let {tool, ...args} = step as Step & Record<string, unknown>;
    if (mode === 'before' && step.tool === 'get_operation') {
      // Before, an operation came with no parameters, resolved schemas or retry policies: the agent
      // read the page that documents it.
      const match = docs.operation(step.operation);
      tool = 'get_page';
      args = {url: match.found?.documentedAt[0]?.url.replace(/#.*$/, '') ?? '/'};
    }
    if (step.tool === 'get_page') {
      const ranked = [...hits.filter((hit) => hit.url.includes('#')), ...hits.filter((hit) => !hit.url.includes('#'))];
      const named =
        typeof step.open === 'string'
          ? hits.find((hit) =>
              `${hit.title} ${hit.section ?? ''}`.toLowerCase().includes(String(step.open).toLowerCase()),
            )
          : undefined;
      const url = step.url ?? named?.url ?? ranked[typeof step.open === 'number' ? step.open : 0]?.url ?? '/';
      delete args.open;
      args.url = mode === 'before' ? url.replace(/#.*$/, '') : url;
    }
    if (mode === 'before' && tool === 'get_page') {
      // Whole pages, as get_page answered before it took sections and budgets.
      delete args.languages;
      args.max_tokens = LIMITS.maxTokens;
    }
    const result = (await client.callTool({name: tool, arguments: args})) as CallToolResult;
    const answer = textOf(result);
    if (tool === 'search_docs' && result.structuredContent)
      hits = (result.structuredContent as {results: Hit[]}).results;
    // What a trimmed section left out is picked from as a search hit is, first; the agent still has the search's hits.
    const leftOut =
      tool === 'get_page'
        ? (result.structuredContent as {leftOut?: {heading: string; url: string}[]} | undefined)?.leftOut
        : undefined;
    if (leftOut?.length) hits = [...leftOut.map(({heading, url}) => ({title: heading, section: null, url})), ...hits];
    calls.push(`${tool}(${JSON.stringify(args)}) → ${answer.length} chars${result.isError ? ' (error)' : ''}`);
    chars += answer.length;
    text += `\n${answer}`;
  }
  return {calls, chars, text};
}

async function connect(values: {build: string; stdio?: string}): Promise<Client> {
  const client = new Client({name: 'bench-agent-tasks', version: '1.0.0'});
  if (values.stdio) {
    await client.connect(
      new StdioClientTransport({
        command: path.join(ROOT, 'node_modules/.bin/tsx'),
        args: [path.resolve(values.stdio), '--build', values.build],
        cwd: ROOT,
      }),
    );
  } else {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createDocsServer(new BuiltDocs(values.build)).connect(serverSide);
    await client.connect(clientSide);
  }
  return client;
}

async function main(): Promise<void> {
  const {values} = parseArgs({
    options: {
      build: {type: 'string', default: process.env.DOCS_BUILD_DIR ?? path.join(ROOT, 'build')},
      stdio: {type: 'string'},
    },
  });
  const docs = new BuiltDocs(path.resolve(values.build!));
  const client = await connect({build: path.resolve(values.build!), stdio: values.stdio});
  const totals = {before: 0, after: 0};
  let complete = true;
  const rows: string[] = [];
  for (const mode of ['before', 'after'] as const) {
    console.log(`\n## ${mode}${mode === 'before' ? ' (get_page answers whole pages, as before #anchor)' : ''}`);
    for (const task of TASKS) {
      const played = await play(client, docs, task, mode);
      const missing = task.facts.filter((fact) => !played.text.toLowerCase().includes(fact.toLowerCase()));
      totals[mode] += played.chars;
      console.log(
        `\n${task.name}: ${played.chars} chars, facts ${task.facts.length - missing.length}/${task.facts.length}`,
      );
      for (const call of played.calls) console.log(`  ${call}`);
      if (missing.length) console.log(`  missing: ${missing.join(', ')}`);
      if (mode === 'after') {
        if (missing.length) complete = false;
        rows.push(`${task.name}|${played.chars}|${missing.length === 0 ? 'yes' : `no (${missing.join(', ')})`}`);
      } else rows.push(`${task.name}|${played.chars}`);
    }
  }
  await client.close();
  console.log('\n| Task | Before (chars) | After (chars) | After / before | Facts present after |');
  console.log('| - | - | - | - | - |');
  for (const [index, task] of TASKS.entries()) {
    const before = Number(rows[index]!.split('|')[1]);
    const [, after, facts] = rows[TASKS.length + index]!.split('|');
    console.log(`| ${task.name} | ${before} | ${after} | ${(Number(after) / before).toFixed(2)} | ${facts} |`);
  }
  const ratio = totals.after / totals.before;
  console.log(
    `\nTotal: before ${totals.before} chars (≈${Math.round(totals.before / 4)} tokens), after ${totals.after} chars (≈${Math.round(totals.after / 4)} tokens): ${(ratio * 100).toFixed(0)} %.`,
  );
  if (!complete || ratio > 1 / 3) {
    console.log(complete ? 'Over a third of the characters before.' : 'Some facts are missing.');
    process.exitCode = 1;
  }
}

void main();
