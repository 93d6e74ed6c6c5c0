// Doc tests: every code block is classified, JSON examples validate, Node samples type-check against the SDK, and
// runnable samples run on the local sandbox (bash, Node 20 and the pages' minimum Node, Python) with exactly the
// scopes their page tells the reader to get.
import {createHmac} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {ENVIRONMENTS, SAMPLES, SANDBOX} from '../../src/constants/api';
import {RETRY_POLICIES, TOKEN_DROPPING_CODES, errorRule} from '../../src/constants/behaviour';
import {webhookEventExamples} from '../../lib/contract/webhooks';
import {contractData, type ContractData} from '../../lib/contract/data';
import {scopesFor} from '../../lib/contract/scopes';
import {startSandbox, type Sandbox} from '../../sandbox/server';
import {parametersOf} from '../../sandbox/test-helpers';
import {
  allBlocks,
  blockName,
  listPages,
  pageBlocks,
  requiredScopeOperations,
  ROOT,
  selectedPages,
  type Block,
} from './blocks';
import {exampleValidator, loadArtifacts, loadContract} from './contract';
import {answerChecker} from '../../lib/contract/validator';
import {listOperations, type OpenApiDocument} from '../../lib/contract/openapi';
import {MINIMUM_NODE_RELEASE, minimumNodeBinary} from './node-binary';
import {isRun, pythonWithRequests, runSession, sessionsOf, startProxy, useUpTokenRequests} from './sessions';
import {typeCheckSamples} from './typecheck';

const runnerOf = (block: Block) => sessionsOf([block])[0]!.runner;
const languagesOf = (blocks: Block[]) => [...new Set(blocks.map(runnerOf))].sort();
/** The most attempts the pages' backoff helpers make by default. */
const MAX_BACKOFF_ATTEMPTS = 5;

test('the Changelog follows its Deprecation policy: each entry adds, fixes, deprecates with notice or removes after a Sunset', () => {
  const changelog = readFileSync(path.join(ROOT, 'docs/additional/changelog.mdx'), 'utf8');
  const entries = [...changelog.matchAll(/^## (\d{4}-\d{2}-\d{2}):[^\n]*\n([\s\S]*?)(?=^## )/gm)];
  expect(entries.length).toBeGreaterThan(5);
  // The policy knows no other kind of change to what an existing v1 request answers.
  const allowed = /^(Added|Fixed|Deprecated|Removed)$/;
  for (const [, date, body] of entries) {
    for (const [, heading] of body!.matchAll(/^### (.+)$/gm)) {
      expect(heading, `${date}: "### ${heading}" is not a section the policy allows`).toMatch(allowed);
    }
  }
});

test.describe('every code block', () => {
  test('is classified by its fence metadata (run, example, sdk or norun)', () => {
    const blocks = allBlocks();
    const counts = new Map<string, number>();
    blocks.forEach((block) => counts.set(block.classification.kind, (counts.get(block.classification.kind) ?? 0) + 1));
    console.log(`code blocks: ${blocks.length} (${[...counts].map(([kind, count]) => `${kind} ${count}`).join(', ')})`);
    expect(
      blocks.flatMap((block) =>
        block.classification.kind === 'invalid' ? [`${blockName(block)}: ${block.classification.reason}`] : [],
      ),
    ).toEqual([]);
  });

  test('every JSON block parses, and each example validates against the schema of its operation', async () => {
    const {document} = await loadContract();
    const validator = exampleValidator(document);
    const json = allBlocks().filter((block) => block.language === 'json');
    const examples = json.filter((block) => block.classification.kind === 'example');
    const problems = json.flatMap((block) => {
      let value: unknown;
      try {
        value = JSON.parse(block.code);
      } catch (error) {
        return [`${blockName(block)}: not JSON: ${(error as Error).message}`];
      }
      if (block.classification.kind !== 'example') return [];
      const target = block.classification;
      const where = `${target.method} ${target.path} ${target.target}${target.pointer ? ` ${target.pointer}` : ''}`;
      return validator.validate(value, target).map((problem) => `${blockName(block)} against ${where}: ${problem}`);
    });
    console.log(`JSON blocks parsed: ${json.length}, examples checked: ${examples.length}`);
    expect(problems).toEqual([]);
  });

  test('make the Idempotency-Key before the call, never inside it', () => {
    // A key generated in the call is new on every retry, so a copied sample would buy twice.
    const inline = [
      /Idempotency-Key["']?\s*[:=,]\s*["']?\$\(uuidgen\)/,
      /Idempotency-Key["']?\s*[:=,]\s*(?:randomUUID|crypto\.randomUUID)\(\)/,
      /Idempotency-Key["']?\s*[:=,]\s*str\(uuid\.uuid4\(\)\)/,
      /idempotencyKey\s*:\s*(?:randomUUID|crypto\.randomUUID)\(\)/,
    ];
    const problems = allBlocks().flatMap((block) =>
      block.code
        .split('\n')
        .map((line, index) => `${blockName(block)}, line ${index + 1}: ${line.trim()}`)
        .filter((named) => inline.some((pattern) => pattern.test(named))),
    );
    expect(problems).toEqual([]);
  });

  test('a sample that saves a list to a file for later checks reads every page of it (next_cursor)', async () => {
    // One page is what a reconciliation that "passes" on a small account and misses money on a big one reads.
    const {document} = await loadContract();
    const lists = listOperations(document)
      .filter(({method, path: apiPath}) => method === 'GET' && !apiPath.includes('{'))
      .filter(({operation}) => parametersOf(document, operation).some(({name}) => name === 'cursor'))
      .map(({path: apiPath}) => apiPath);
    expect(lists).toContain('/v1/orders');
    const saved = allBlocks().filter(
      (block) =>
        isRun(block) &&
        lists.some((apiPath) => new RegExp(`${apiPath.replace(/\//g, '\\/')}[?"']`).test(block.code)) &&
        /(>>?|-o)\s*"?[\w.$-]+\.jsonl?\b/.test(block.code),
    );
    console.log(`samples that save a list: ${saved.length}, each following next_cursor`);
    expect(saved.filter((block) => !/next_cursor/.test(block.code)).map(blockName)).toEqual([]);
  });

  test('Node samples type-check against the SDK declaration (sdk/index.d.ts), strict', () => {
    // One misuse checked in the same program shows the check can fail, and how it names the line.
    const misuse = pageBlocks(
      path.join(ROOT, 'docs', 'broken.mdx'),
      [
        '```ts sdk',
        "import { AcmeConnect } from '@acme-connect/sdk';",
        "const acme = new AcmeConnect({ clientId: 'a', clientSecret: 'b', environment: 'sandbox' });",
        'await acme.orders.list();',
        '```',
      ].join('\n'),
    );
    const {problems, checked} = typeCheckSamples([...allBlocks(), ...misuse]);
    console.log(`Node samples type-checked: ${checked}`);
    expect(problems).toEqual([
      expect.stringMatching(/^docs\/broken\.mdx:4 \(ts\): TS2339 Property 'list' does not exist/),
    ]);
  });
});

test.describe('runnable samples run against the sandbox', () => {
  test.describe.configure({mode: 'serial'});
  let sandbox: Sandbox;
  let contract: ContractData;
  let python: string;
  let minimumNode: string;
  let contractDocument: OpenApiDocument;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    [sandbox, contract, python, minimumNode] = await Promise.all([
      loadContract().then(({document}) => {
        contractDocument = document;
        return startSandbox({
          credentials: [],
          checkAnswer: answerChecker(document),
          // Deliveries to the partner URLs the pages register reach a local endpoint that answers 204.
          webhookTransport: async () => 204,
        });
      }),
      loadArtifacts().then(contractData),
      pythonWithRequests(),
      Promise.resolve(minimumNodeBinary()),
    ]);
  });

  test.afterAll(() => sandbox?.close());

  let credentials = 0;
  /** The scopes `page`'s RequiredScopes sentence tells the reader to get. */
  const scopesOf = (page: string) => scopesFor(contract, requiredScopeOperations(path.join(ROOT, page)));
  /** Operations the pages' samples called successfully. */
  const covered = new Set<string>();

  type RunOptions = {
    scopes?: string[];
    node?: string;
    secret?: string;
    asPasted?: boolean;
    /** The sandbox, or a server in front of it. */
    target?: Sandbox;
    /** What other clients of the credential do first. */
    prepare?: (credential: {clientId: string; clientSecret: string}) => Promise<unknown>;
  };
  /** Runs blocks of one language as one session of a new reader: its own sandbox state and rate-limit windows. */
  async function runAlone(blocks: Block[], {target = sandbox, scopes, secret, prepare, ...options}: RunOptions = {}) {
    const session = sessionsOf(blocks)[0]!;
    const credential = {
      clientId: `${ENVIRONMENTS.sandbox.clientIdPrefix}doctests${++credentials}`,
      clientSecret: `${ENVIRONMENTS.sandbox.clientSecretPrefix}doctests`,
      scopes: scopes ?? scopesOf(session.page),
    };
    target.setCredentials([credential]);
    await prepare?.(credential);
    const env = {ACME_CLIENT_ID: credential.clientId, ACME_CLIENT_SECRET: secret ?? credential.clientSecret};
    return runSession(session, {...options, sandbox: target, env, python});
  }

  /** Runs each session of `blocks` alone, Node's on both versions; problems name the interpreter. */
  async function runPage(blocks: Block[], options: RunOptions) {
    const problems: string[] = [];
    const outputs: ({runner: string; blocks: number} & Awaited<ReturnType<typeof runSession>>)[] = [];
    for (const session of sessionsOf(blocks)) {
      for (const node of session.runner === 'node' ? [process.execPath, minimumNode] : [undefined]) {
        const version = node === minimumNode ? MINIMUM_NODE_RELEASE : process.versions.node;
        const runner = node ? `node ${version}` : session.runner;
        const result = await runAlone(session.blocks, {...options, node});
        problems.push(...result.problems.map((problem) => `[${runner}] ${problem}`));
        for (const entry of result.log)
          if (entry.operation && entry.status < 400 && options.secret === undefined) covered.add(entry.operation);
        outputs.push({runner, blocks: session.blocks.length, ...result});
      }
    }
    return {problems, outputs};
  }

  for (const file of selectedPages()) {
    const page = path.relative(ROOT, file);
    const blocks = pageBlocks(file);
    if (!blocks.some(isRun)) {
      // Said, not skipped: its blocks were still classified, validated and type-checked above.
      test(`${page}: nothing to run (no \`run\` block; ${blocks.length} code block(s) checked above)`, () =>
        expect(blocks.filter(isRun)).toEqual([]));
      continue;
    }
    test(`${page}`, async () => {
      test.setTimeout(180_000);
      const scopes = scopesOf(page);
      const {problems, outputs} = await runPage(blocks, {scopes});
      console.log(
        `${page} [scopes: ${scopes.join(' ') || 'none'}] ran ${outputs.map((run) => `${run.runner}: ${run.blocks}`).join(', ')}`,
      );
      expect.soft(problems).toEqual([]);
      // As pasted (no `set -e` of the harness), with a wrong secret: every session that calls the API stops at the
      // refused token request and prints its answer (RFC 6749 `invalid_client`), not a null before it.
      const secret = `${ENVIRONMENTS.sandbox.clientSecretPrefix}wrong`;
      const wrong = await runPage(blocks, {scopes, secret, asPasted: true});
      // A session that calls nothing (a signature check, say) has no API error to show.
      for (const {runner, output, log} of wrong.outputs.filter((run) => run.log.length > 0)) {
        const failed = log.findIndex((entry) => entry.status >= 400);
        const after = failed < 0 ? [] : log.slice(failed + 1);
        expect
          .soft(
            after.map((entry) => `${entry.method} ${entry.path}`),
            `wrong secret [${runner}]: requests after ${log[failed]?.method} ${log[failed]?.path} failed`,
          )
          .toEqual([]);
        const errorAt = output.indexOf('invalid_client');
        const nullLine = output.split('\n').findIndex((line) => line.trim() === 'null');
        const nullFirst = nullLine >= 0 && output.split('\n').slice(0, nullLine).join('\n').length < errorAt;
        const head = output.trim().split('\n').slice(0, 6).join(' | ') || '(no output)';
        expect
          .soft(errorAt >= 0 && !nullFirst, `wrong secret [${runner}] prints invalid_client first: ${head}`)
          .toBe(true);
      }
    });
  }

  // Coverage and "each language has one" are properties of all pages together. With pages named (`npm run test:samples
  // -- <page>`, writer-change), coverage asks only for the operations no other page is scoped for: only they reach those.
  const allPagesSelected = selectedPages().length === listPages().length;
  test(
    allPagesSelected
      ? 'every operation of the contract has a runnable sample that succeeds on some page'
      : 'every operation only the named pages are scoped for has a runnable sample that succeeds on them',
    () => {
      const named = selectedPages();
      const elsewhere = new Set(
        listPages()
          .filter((file) => !named.includes(file))
          .flatMap((file) => requiredScopeOperations(file)),
      );
      const operations = allPagesSelected
        ? listOperations(contractDocument).map(({method, path: template}) => `${method} ${template}`)
        : [...new Set(named.flatMap((file) => requiredScopeOperations(file)))].filter((op) => !elsewhere.has(op));
      const missing = operations.filter((operation) => !covered.has(operation));
      console.log(`operations with a runnable sample: ${operations.length - missing.length} of ${operations.length}`);
      expect(missing).toEqual([]);
    },
  );

  if (allPagesSelected)
    test("the webhook test vector: each language's verifier on the pages accepts it, and rejects it altered", async () => {
      test.setTimeout(180_000);
      const {timestamp, signature, event} = SAMPLES.webhookTestVector;
      const body = JSON.stringify(webhookEventExamples(contractDocument).find(({type}) => type === event)!.payload);
      expect(createHmac('sha256', SAMPLES.webhookSecret).update(`${timestamp}.${body}`).digest('hex')).toBe(signature);
      // A verifier is a runnable block that carries the whole vector, as the reader copies it.
      const verifiers = allBlocks().filter(
        (block) =>
          isRun(block) &&
          [body, timestamp, signature, SAMPLES.webhookSecret].every((part) => block.code.includes(part)),
      );
      expect(languagesOf(verifiers)).toEqual(['bash', 'node', 'python']);
      const changedBody = body.replace(
        /"amount":(\d)/,
        (_match, digit: string) => `"amount":${(Number(digit) + 1) % 10}`,
      );
      const changedSignature = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
      const rejected: string[] = [];
      for (const block of verifiers) {
        // Python frameworks hand headers over in their own case (Starlette and AWS: lower case): accepted in both.
        const verify = block.code.match(/^def (verify\w*)\(/m)?.[1];
        if (runnerOf(block) === 'python') expect(verify, `${blockName(block)} defines a verify function`).toBeTruthy();
        const caseCheck = [
          'for __doc_case in (str.lower, str.upper):',
          `    __doc_headers = {__doc_case("X-Webhook-Timestamp"): "${timestamp}", __doc_case("X-Webhook-Signature"): "v1=${signature}"}`,
          `    if not ${verify}(${JSON.stringify(body)}.encode(), __doc_headers, "${SAMPLES.webhookSecret}", ${timestamp}):`,
          `        raise SystemExit(f"${verify} rejects header names in {__doc_case.__name__} case")`,
        ];
        const checked = runnerOf(block) === 'python' ? [block.code, ...caseCheck].join('\n') : block.code;
        const accepted = await runPage([{...block, code: checked}], {scopes: []});
        expect(accepted.problems, blockName(block)).toEqual([]);
        for (const {output} of accepted.outputs) expect(output, blockName(block)).toContain('signature valid');
        for (const [what, from, to] of [
          ['body', body, changedBody],
          ['signature', signature, changedSignature],
          // The header's value (quoted), not a clock the sample passes as `now`.
          ['timestamp', new RegExp(`(['"])${timestamp}\\1`, 'g'), `$1${Number(timestamp) + 1}$1`],
        ] as const) {
          const altered = {...block, code: block.code.replaceAll(from, to)};
          expect(altered.code, `${blockName(block)} must carry the ${what} literally`).not.toBe(block.code);
          const result = await runPage([altered], {scopes: []});
          if (result.problems.length > 0 && result.outputs.every(({output}) => !output.includes('signature valid'))) {
            rejected.push(`${blockName(block)}: ${what}`);
          }
        }
      }
      console.log(
        `webhook test vector: ${verifiers.length} verifiers accept it; rejected when altered: ${rejected.length}`,
      );
      expect(rejected).toHaveLength(verifiers.length * 3);
    });

  if (allPagesSelected)
    test("each language's backoff sample waits out a 429's Retry-After and then succeeds", async () => {
      test.setTimeout(180_000);
      // A backoff sample (a runnable block that reads Retry-After) runs alone against a sandbox allowing one API call a
      // window, its token requests used up by other clients: its token request (no `retry` field) and second call are
      // refused with "Retry-After: 1", the window ending a second later, whatever the machine's pace.
      const samples = allBlocks().filter((block) => isRun(block) && /retry-after/i.test(block.code));
      expect(languagesOf(samples)).toEqual(['bash', 'node', 'python']);
      const strict = await startSandbox({credentials: [], requestsPerMinute: 1, retryAfterSeconds: 1});
      const recovered: string[] = [];
      const prepare: RunOptions['prepare'] = (credential) => useUpTokenRequests(strict.origin, credential);
      try {
        for (const block of samples) {
          const {output, log: requests} = await runAlone([block], {target: strict, prepare});
          const refused = requests.filter((entry) => entry.status === 429);
          const problems = [
            ...(refused.length === 0 ? ['no request was refused with 429'] : []),
            ...(refused.some((entry) => entry.path === '/oauth/token') ? [] : ['the token request was not refused']),
            ...refused.flatMap((entry) => {
              const retry = requests.find((later) => later.at > entry.at && later.path === entry.path);
              if (!retry) return [`${entry.path}: not retried after its 429`];
              const waited = (retry.at - entry.at) / 1000;
              return waited + 0.05 < (entry.retryAfter ?? 0)
                ? [`${entry.path}: retried after ${waited} s, before Retry-After`]
                : [];
            }),
            ...(requests.at(-1)!.status >= 400 ? [`last answer ${requests.at(-1)!.status}:\n${output}`] : []),
          ];
          expect(problems, blockName(block)).toEqual([]);
          recovered.push(`${runnerOf(block)}: ${refused.length} × 429`);
        }
      } finally {
        await strict.close();
      }
      console.log(`backoff samples recovered: ${recovered.join(', ')}`);
    });

  if (allPagesSelected)
    test("each language's backoff helper follows error.retry: a `same_key` error is retried a bounded number of times, any other is sent once", async () => {
      test.setTimeout(180_000);
      // A demonstration: a runnable block after a backoff helper (it reads Retry-After) of the same
      // page and language, sending the sandbox's error header; it runs with the helper as one session.
      const pairs = allBlocks()
        .filter((block) => isRun(block) && /retry-after/i.test(block.code))
        .flatMap((helper) =>
          pageBlocks(path.join(ROOT, helper.page))
            .filter(
              (block) =>
                isRun(block) &&
                block.line > helper.line &&
                runnerOf(block) === runnerOf(helper) &&
                block.code.includes(SANDBOX.errorHeader),
            )
            .map((demo) => ({helper, demo})),
        );
      expect(languagesOf(pairs.map(({helper}) => helper))).toEqual(['bash', 'node', 'python']);
      for (const {helper, demo} of pairs) {
        const {problems, log} = await runAlone([helper, demo]);
        expect(problems, blockName(demo)).toEqual([]);
        const attempts = new Map<string, number>();
        for (const entry of log.filter((request) => request.status >= 400 && request.code)) {
          attempts.set(entry.code!, (attempts.get(entry.code!) ?? 0) + 1);
        }
        const automatic = [...attempts.keys()].map((code) => RETRY_POLICIES[errorRule(code).retry].automatic);
        expect(automatic, `${blockName(demo)} sends errors retried and not`).toEqual(
          expect.arrayContaining([true, false]),
        );
        for (const [code, count] of attempts) {
          const where = `${blockName(demo)}: ${code} (${errorRule(code).retry})`;
          // Retried: more than once, at most the helper's attempts; not retried: once.
          const [least, most] = RETRY_POLICIES[errorRule(code).retry].automatic ? [2, MAX_BACKOFF_ATTEMPTS] : [1, 1];
          expect(count, where).toBeGreaterThanOrEqual(least);
          expect(count, where).toBeLessThanOrEqual(most);
        }
      }
      console.log(`backoff decisions: ${pairs.length} helpers follow error.retry`);
    });

  test('a token cache sends one token request for callers that start together, and forgets its token after the codes the model says (insufficient_scope too)', async () => {
    // A JavaScript or Python cache starts several callers at a cold start itself: promises in Node, threads in Python.
    const startsTogether: Record<string, RegExp> = {
      node: /Promise\.all\(\[\s*getToken\(\),\s*getToken\(\)/,
      python: /pool\.map\(lambda _: get_token\(\)/,
    };
    const shared = allBlocks().filter(
      (block) =>
        isRun(block) &&
        runnerOf(block) in startsTogether &&
        /(function getToken|def get_token)\b/.test(block.code) &&
        // A cache keeps the token until it expires; a plain token request is not one.
        /expires_?at/i.test(block.code),
    );
    // Every language with a cache has one on the pages (only the named ones, in a single-page run).
    if (allPagesSelected) expect(new Set(shared.map(runnerOf))).toEqual(new Set(Object.keys(startsTogether)));
    // A cache that forgets: it defines a token getter and keeps what it got, and the call helper the probe after it
    // uses (bash `api`, Node `callApi`, Python `call_api`).
    const probes: Record<string, string> = {
      bash: `api -H "${SANDBOX.errorHeader}: insufficient_scope" https://sandbox.api.example.com/v1/balance >/dev/null || true\nget_token`,
      node: `await callApi('/v1/balance', { headers: { '${SANDBOX.errorHeader}': 'insufficient_scope' } }).catch(() => {});\nawait getToken();`,
      python: `try:\n    call_api("GET", "/v1/balance", headers={"${SANDBOX.errorHeader}": "insufficient_scope"})\nexcept RuntimeError:\n    pass\nget_token()`,
    };
    const forgetting = allBlocks().filter(
      (block) =>
        isRun(block) &&
        /^(get_token\(\) \{|export function getToken\(|def get_token\()/m.test(block.code) &&
        /\b(cached|_cache|ACCESS_TOKEN_EXPIRES_AT)\b/.test(block.code),
    );
    if (forgetting.length > 0) expect(languagesOf(forgetting)).toEqual(['bash', 'node', 'python']);
    for (const block of new Set([...shared, ...forgetting])) {
      const runner = runnerOf(block);
      if (shared.includes(block)) expect(block.code, blockName(block)).toMatch(startsTogether[runner]!);
      const probe: Block = {
        ...block,
        line: block.line + 1,
        code: probes[runner]!,
        classification: {kind: 'run', runner, expect: [200, errorRule('insufficient_scope').status]},
      };
      const probed = forgetting.includes(block);
      // The helper names every code the model says a client forgets its token after.
      if (probed)
        for (const code of TOKEN_DROPPING_CODES) expect(block.code, `${blockName(block)}: ${code}`).toContain(code);
      const {problems, blockLogs} = await runAlone(probed ? [block, probe] : [block]);
      expect(problems, blockName(block)).toEqual([]);
      if (shared.includes(block))
        expect(
          blockLogs[0]!.filter((entry) => entry.path === '/oauth/token'),
          `${blockName(block)}: one token request for callers that start together`,
        ).toHaveLength(1);
      // The refused call used the cached token; the next getToken asks the token endpoint again.
      if (probed)
        expect(
          blockLogs[1]!.map((entry) => `${entry.path} ${entry.status}`),
          blockName(block),
        ).toEqual([`/v1/balance ${errorRule('insufficient_scope').status}`, '/oauth/token 200']);
    }
    console.log(`token caches: ${shared.length} share one token request, ${forgetting.length} forget it`);
  });

  test('every loop over pages stops when next_cursor does not advance', async () => {
    test.setTimeout(180_000);
    const loops = allBlocks().filter(
      (block) => isRun(block) && /next_cursor/.test(block.code) && /\b(while|for)\b/.test(block.code),
    );
    // In front of the sandbox, as a buggy server could: every list answers has_more true with the same
    // next_cursor, and the cursor sent is dropped (the sandbox would refuse it).
    const stuckCursor = 'c_stuck';
    const proxy = await startProxy(sandbox.origin, {
      rewrite: (url) => url.searchParams.delete('cursor'),
      answer: ({method, status, text}) => {
        if (method !== 'GET' || status >= 300) return text;
        try {
          const page = JSON.parse(text) as Record<string, unknown>;
          return 'has_more' in page ? JSON.stringify({...page, has_more: true, next_cursor: stuckCursor}) : text;
        } catch {
          return text;
        }
      },
    });
    const stuck: Sandbox = {...sandbox, origin: proxy.origin};
    try {
      // One run per page and language: its blocks up to its last loop (the token and the state the loops read).
      const groups = new Map<string, Block[]>();
      for (const loop of loops) {
        const key = `${loop.page} ${runnerOf(loop)}`;
        groups.set(key, [...(groups.get(key) ?? []), loop]);
      }
      for (const group of groups.values()) {
        const last = group.at(-1)!;
        const blocks = pageBlocks(path.join(ROOT, last.page)).filter(
          (block) => isRun(block) && runnerOf(block) === runnerOf(last) && block.line <= last.line,
        );
        const {problems, blockLogs} = await runAlone(blocks, {target: stuck});
        expect(problems, `${last.page} (${runnerOf(last)}), the blocks up to its last loop`).toEqual([]);
        for (const loop of group) {
          // The first page, then the page whose next_cursor is the cursor sent: then it must stop.
          const pages = blockLogs[blocks.findIndex((block) => block.line === loop.line)]!.filter(
            (entry) => entry.method === 'GET' && entry.status < 400,
          );
          expect(pages.length, `${blockName(loop)} asked for no page`).toBeGreaterThan(0);
          expect(pages.length, `${blockName(loop)} went on asking for the same page`).toBeLessThanOrEqual(2);
        }
      }
    } finally {
      await proxy.close();
    }
    console.log(`page loops: ${loops.length} stop on a cursor that does not advance`);
  });
});
