/**
 * Doc tests: every code block is classified, JSON examples validate, Node samples type-check against the SDK, and
 * runnable samples run against the local sandbox (bash, Node 20 and the pages' minimum Node, Python) with exactly
 * the scopes their page tells the reader to get.
 */
import {createHmac} from 'node:crypto';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {ENVIRONMENTS, SAMPLES, SANDBOX} from '../../src/constants/api';
import {RETRY_POLICIES, TOKEN_DROPPING_CODES, errorRule} from '../../src/constants/behaviour';
import {webhookEventExamples} from '../../lib/contract/webhooks';
import {contractData, type ContractData} from '../../lib/contract/data';
import {scopesFor} from '../../lib/contract/scopes';
import {startSandbox, type Sandbox} from '../../sandbox/server';
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
import {minimumNodeBinary} from './node-binary';
import {
  isRun,
  pythonWithRequests,
  requestLog,
  runSession,
  sessionsOf,
  startProxy,
  useUpTokenRequests,
  workDirFor,
  type RequestEntry,
  type Session,
} from './sessions';
import {typeCheckSamples} from './typecheck';

const relative = (file: string) => path.relative(ROOT, file);

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
        .flatMap((line, index) =>
          inline.some((pattern) => pattern.test(line))
            ? [`${blockName(block)}, line ${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(problems).toEqual([]);
  });

  test('a sample that saves a list to a file for later checks reads every page of it (next_cursor)', async () => {
    // One page is what a reconciliation that "passes" on a small account and misses money on a big one reads.
    const {document} = await loadContract();
    const lists = listOperations(document)
      .filter(({method, path: apiPath, operation}) => {
        const parameters = (operation.parameters ?? []) as {$ref?: string; name?: string}[];
        return (
          method === 'GET' &&
          !apiPath.includes('{') &&
          parameters.some((parameter) => parameter.$ref?.endsWith('/Cursor') || parameter.name === 'cursor')
        );
      })
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
    const {problems, checked} = typeCheckSamples(allBlocks());
    console.log(`Node samples type-checked: ${checked}`);
    expect(problems).toEqual([]);
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

  test.afterAll(async () => {
    await sandbox?.close();
  });

  let credentials = 0;
  /** A new reader's credential: its own sandbox state (balance, orders, eSIMs) and rate-limit windows. */
  const newCredential = (scopes: string[]) => ({
    clientId: `${ENVIRONMENTS.sandbox.clientIdPrefix}doctests${++credentials}`,
    clientSecret: `${ENVIRONMENTS.sandbox.clientSecretPrefix}doctests`,
    scopes,
  });
  /** Operations the pages' samples called successfully, with the pages that call them. */
  const covered = new Map<string, Set<string>>();
  /** Runs a page's sessions, each as a new reader holding `scopes`. */
  async function runPage(file: string, blocks: Block[], scopes: string[], secret?: string, asPasted = false) {
    const problems: string[] = [];
    const ran: string[] = [];
    const outputs: {runner: string; output: string; requests: number; log: RequestEntry[]}[] = [];
    for (const session of sessionsOf(blocks)) {
      const interpreters =
        session.runner === 'node'
          ? [
              {name: `node ${process.versions.node}`, node: process.execPath},
              {name: `node ${minimumNode.match(/node-[\w-]+-([\d.]+)/)?.[1]}`, node: minimumNode},
            ]
          : [{name: session.runner}];
      for (const interpreter of interpreters) {
        const credential = newCredential(scopes);
        sandbox.setCredentials([credential]);
        const env = {ACME_CLIENT_ID: credential.clientId, ACME_CLIENT_SECRET: secret ?? credential.clientSecret};
        const logStart = sandbox.log.length;
        const result = await runSession(session, {
          sandbox,
          workDir: workDirFor(blocks),
          env,
          python,
          node: 'node' in interpreter ? interpreter.node : undefined,
          asPasted,
        });
        problems.push(...result.problems.map((problem) => `[${interpreter.name}] ${problem}`));
        const logged = requestLog(sandbox.log.slice(logStart));
        const requests = logged.length;
        for (const entry of logged) {
          if (entry.operation && entry.status < 400 && secret === undefined) {
            covered.set(entry.operation, (covered.get(entry.operation) ?? new Set()).add(relative(file)));
          }
        }
        outputs.push({runner: interpreter.name, output: result.output, requests, log: logged});
        ran.push(`${interpreter.name}: ${session.blocks.length}`);
      }
    }
    return {problems, ran, outputs};
  }

  for (const file of selectedPages()) {
    const blocks = pageBlocks(file);
    if (!blocks.some(isRun)) {
      // Said, not skipped: its blocks were still classified, validated and type-checked above.
      test(`${relative(file)}: nothing to run (no \`run\` block; ${blocks.length} code block(s) checked above)`, () => {
        console.log(
          `${relative(file)}: nothing to run against the sandbox; its ${blocks.length} code block(s) are classified, validated and type-checked`,
        );
        expect(blocks.filter(isRun)).toEqual([]);
      });
      continue;
    }
    test(`${relative(file)}`, async () => {
      test.setTimeout(180_000);
      const scopes = scopesFor(contract, requiredScopeOperations(file));
      const {problems, ran} = await runPage(file, blocks, scopes);
      console.log(`${relative(file)} [scopes: ${scopes.join(' ') || 'none'}] ran ${ran.join(', ')}`);
      expect(problems).toEqual([]);
    });
  }

  // Coverage and "each language has one" are properties of all pages together. With pages named
  // (`npm run test:samples -- <page>`, tests/writer-change.spec.ts), coverage asks them for the operations only
  // they are scoped for: a page's samples reach only those, so the others keep what the full run found.
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

  test("with a wrong secret, every page's first failing step prints the API's error, never a null", async () => {
    test.setTimeout(300_000);
    const pages = selectedPages().filter((file) => pageBlocks(file).some(isRun));
    const quiet: string[] = [];
    const carriedOn: string[] = [];
    for (const file of pages) {
      const scopes = scopesFor(contract, requiredScopeOperations(file));
      const {outputs} = await runPage(
        file,
        pageBlocks(file),
        scopes,
        `${ENVIRONMENTS.sandbox.clientSecretPrefix}wrong`,
        true,
      );
      // A session that calls nothing (a signature check, say) has no API error to show.
      for (const {runner, output, log} of outputs.filter((session) => session.requests > 0)) {
        // As pasted (the harness adds no `set -e`), the session stops at the failed token request.
        const failed = log.findIndex((entry) => entry.status >= 400);
        const after = failed < 0 ? [] : log.slice(failed + 1);
        if (after.length > 0) {
          carriedOn.push(
            `${relative(file)} [${runner}]: ${after.length} request(s) after ${log[failed]!.method} ${log[failed]!.path} failed, first ${after[0]!.method} ${after[0]!.path}`,
          );
        }
        // The token request fails first: its answer (RFC 6749 `invalid_client`) must reach the reader.
        const errorAt = output.indexOf('invalid_client');
        const nullLine = output.split('\n').findIndex((line) => line.trim() === 'null');
        if (errorAt < 0 || (nullLine >= 0 && output.split('\n').slice(0, nullLine).join('\n').length < errorAt)) {
          quiet.push(
            `${relative(file)} [${runner}]: ${output.trim().split('\n').slice(0, 6).join(' | ') || '(no output)'}`,
          );
        }
      }
    }
    console.log(`wrong secret: ${pages.length} pages; sessions that call the API must each print invalid_client`);
    expect(quiet).toEqual([]);
    expect(carriedOn).toEqual([]);
  });

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
        const file = path.join(ROOT, block.page);
        const accepted = await runPage(file, [block], []);
        expect(accepted.problems, blockName(block)).toEqual([]);
        expect(
          accepted.outputs.every(({output}) => output.includes('signature valid')),
          blockName(block),
        ).toBe(true);
        for (const [what, from, to] of [
          ['body', body, changedBody],
          ['signature', signature, changedSignature],
          // The header's value (quoted), not a clock the sample passes as `now`.
          ['timestamp', new RegExp(`(['"])${timestamp}\\1`, 'g'), `$1${Number(timestamp) + 1}$1`],
        ] as const) {
          const altered = {...block, code: block.code.replaceAll(from, to)};
          expect(altered.code, `${blockName(block)} must carry the ${what} literally`).not.toBe(block.code);
          const result = await runPage(file, [altered], []);
          if (result.problems.length > 0 && result.outputs.every(({output}) => !output.includes('signature valid'))) {
            rejected.push(`${blockName(block)}: ${what}`);
          }
        }
        // Python frameworks hand headers over in their own case (Starlette and AWS: lower case).
        if (runnerOf(block) === 'python') {
          const verify = block.code.match(/^def (verify\w*)\(/m)?.[1];
          expect(verify, `${blockName(block)} defines a verify function`).toBeTruthy();
          const check = [
            'for __doc_case in (str.lower, str.upper):',
            `    __doc_headers = {__doc_case("X-Webhook-Timestamp"): "${timestamp}", __doc_case("X-Webhook-Signature"): "v1=${signature}"}`,
            `    if not ${verify}(${JSON.stringify(body)}.encode(), __doc_headers, "${SAMPLES.webhookSecret}", ${timestamp}):`,
            `        raise SystemExit(f"${verify} rejects header names in {__doc_case.__name__} case")`,
          ];
          const cased = await runPage(file, [{...block, code: [block.code, ...check].join('\n')}], []);
          expect(cased.problems, `${blockName(block)} with header names in another case`).toEqual([]);
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
      // A backoff sample is a runnable block that reads Retry-After; each runs alone, against a sandbox
      // that allows one API call per window, so its second call is refused and must be retried. Each
      // refusal says "Retry-After: 1" and the window ends a second after it, whatever the machine's pace.
      // Its token request is refused too, in the token endpoint's format (no `retry` field).
      const samples = allBlocks().filter((block) => isRun(block) && /retry-after/i.test(block.code));
      expect(languagesOf(samples)).toEqual(['bash', 'node', 'python']);
      const strict = await startSandbox({credentials: [], requestsPerMinute: 1, retryAfterSeconds: 1});
      const recovered: string[] = [];
      try {
        for (const block of samples) {
          const session = sessionsOf([block])[0]!;
          const credential = newCredential(scopesFor(contract, requiredScopeOperations(path.join(ROOT, block.page))));
          strict.setCredentials([credential]);
          await useUpTokenRequests(strict.origin, credential);
          const logStart = strict.log.length;
          const {output} = await runSession(session, {
            sandbox: strict,
            workDir: workDirFor([block]),
            env: {ACME_CLIENT_ID: credential.clientId, ACME_CLIENT_SECRET: credential.clientSecret},
            python,
          });
          const requests = requestLog(strict.log.slice(logStart));
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
          recovered.push(`${session.runner}: ${refused.length} × 429`);
        }
      } finally {
        await strict.close();
      }
      console.log(`backoff samples recovered: ${recovered.join(', ')}`);
    });

  /** Runs blocks as one session of a new reader, against `target` (the sandbox, or a proxy in front of it). */
  async function runAlone(blocks: Block[], target: Sandbox = sandbox) {
    const session: Session = sessionsOf(blocks)[0]!;
    const credential = newCredential(scopesFor(contract, requiredScopeOperations(path.join(ROOT, blocks[0]!.page))));
    sandbox.setCredentials([credential]);
    const logStart = sandbox.log.length;
    const result = await runSession(session, {
      sandbox: target,
      // Every file the page saves (`json file=…` blocks), since the blocks run here may read them.
      workDir: workDirFor(pageBlocks(path.join(ROOT, blocks[0]!.page))),
      env: {ACME_CLIENT_ID: credential.clientId, ACME_CLIENT_SECRET: credential.clientSecret},
      python,
    });
    return {...result, log: requestLog(sandbox.log.slice(logStart))};
  }

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
      if (pairs.length === 0) {
        console.log('backoff decisions: no backoff helper with a demonstration on the selected pages');
        return;
      }
      expect(languagesOf(pairs.map(({helper}) => helper))).toEqual(['bash', 'node', 'python']);
      for (const {helper, demo} of pairs) {
        const {problems, log} = await runAlone([helper, demo]);
        expect(problems, blockName(demo)).toEqual([]);
        const attempts = new Map<string, number>();
        for (const entry of log.filter((request) => request.status >= 400 && request.code)) {
          attempts.set(entry.code!, (attempts.get(entry.code!) ?? 0) + 1);
        }
        const policies = [...attempts.keys()].map((code) => errorRule(code).retry);
        expect(
          policies.some((policy) => RETRY_POLICIES[policy].automatic),
          blockName(demo),
        ).toBe(true);
        expect(
          policies.some((policy) => !RETRY_POLICIES[policy].automatic),
          blockName(demo),
        ).toBe(true);
        for (const [code, count] of attempts) {
          if (RETRY_POLICIES[errorRule(code).retry].automatic) {
            expect(count, `${blockName(demo)}: ${code} (${errorRule(code).retry})`).toBeGreaterThan(1);
            expect(count, `${blockName(demo)}: ${code} (${errorRule(code).retry})`).toBeLessThanOrEqual(
              MAX_BACKOFF_ATTEMPTS,
            );
          } else {
            expect(count, `${blockName(demo)}: ${code} (${errorRule(code).retry})`).toBe(1);
          }
        }
      }
      console.log(`backoff decisions: ${pairs.length} helpers follow error.retry`);
    });

  test('a JavaScript or Python token cache sends one token request for callers that start together', async () => {
    // The sample itself starts several callers at a cold start: promises in Node, threads in Python.
    const startsTogether: Record<string, RegExp> = {
      node: /Promise\.all\(\[\s*getToken\(\),\s*getToken\(\)/,
      python: /pool\.map\(lambda _: get_token\(\)/,
    };
    const caches = allBlocks().filter(
      (block) =>
        isRun(block) &&
        runnerOf(block) in startsTogether &&
        /(function getToken|def get_token)\b/.test(block.code) &&
        // A cache keeps the token until it expires; a plain token request is not one.
        /expires_?at/i.test(block.code),
    );
    // Every language with a cache has one on the pages (only the named ones, in a single-page run).
    if (allPagesSelected) expect(new Set(caches.map(runnerOf))).toEqual(new Set(Object.keys(startsTogether)));
    for (const block of caches) {
      expect(block.code, blockName(block)).toMatch(startsTogether[runnerOf(block)]!);
      const {problems, log} = await runAlone([block]);
      expect(problems, blockName(block)).toEqual([]);
      expect(
        log.filter((entry) => entry.path === '/oauth/token'),
        blockName(block),
      ).toHaveLength(1);
    }
    console.log(`token caches: ${caches.length} share one token request`);
  });

  test('every token cache forgets its token after the codes the model says (insufficient_scope too), so the next call gets a new one', async () => {
    const probes: Record<string, string> = {
      bash: `api -H "${SANDBOX.errorHeader}: insufficient_scope" https://sandbox.api.example.com/v1/balance >/dev/null || true\nget_token`,
      node: `await callApi('/v1/balance', { headers: { '${SANDBOX.errorHeader}': 'insufficient_scope' } }).catch(() => {});\nawait getToken();`,
      python: `try:\n    call_api("GET", "/v1/balance", headers={"${SANDBOX.errorHeader}": "insufficient_scope"})\nexcept RuntimeError:\n    pass\nget_token()`,
    };
    // A cache: a runnable block that defines a token getter and keeps what it got. Each must also
    // define the call helper the probe uses (bash `api`, Node `callApi`, Python `call_api`).
    const caches = allBlocks().filter(
      (block) =>
        isRun(block) &&
        /^(get_token\(\) \{|export function getToken\(|def get_token\()/m.test(block.code) &&
        /\b(cached|_cache|ACCESS_TOKEN_EXPIRES_AT)\b/.test(block.code),
    );
    if (caches.length === 0) {
      console.log('token caches: none on the selected pages');
      return;
    }
    expect(languagesOf(caches)).toEqual(['bash', 'node', 'python']);
    for (const block of caches) {
      // The helper names every code the model says a client forgets its token after.
      for (const code of TOKEN_DROPPING_CODES) expect(block.code, `${blockName(block)}: ${code}`).toContain(code);
      const runner = runnerOf(block);
      const probe: Block = {
        ...block,
        line: block.line + 1,
        code: probes[runner]!,
        classification: {kind: 'run', runner, expect: [200, errorRule('insufficient_scope').status]},
      };
      const {problems, blockLogs} = await runAlone([block, probe]);
      expect(problems, blockName(block)).toEqual([]);
      // The refused call used the cached token; the next getToken asks the token endpoint again.
      expect(
        blockLogs[1]!.map((entry) => `${entry.path} ${entry.status}`),
        blockName(block),
      ).toEqual([`/v1/balance ${errorRule('insufficient_scope').status}`, '/oauth/token 200']);
    }
    console.log(`token caches: ${caches.length} forget their token after insufficient_scope`);
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
        const {problems, blockLogs} = await runAlone(blocks, stuck);
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

  test('a sample broken on purpose fails, naming the page, the block and the reason', async () => {
    test.setTimeout(120_000);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'doc-broken-'));
    const file = path.join(dir, 'broken.mdx');
    const source = [
      "import {RequiredScopes} from '@site/src/components/ApiTables';",
      '',
      "You need <RequiredScopes samples operations={['GET /v1/packages']} />, but not <RequiredScopes operations={['POST /v1/orders']} />.",
      '',
      '```bash run',
      'TOKEN=$(curl -s -X POST https://sandbox.api.example.com/oauth/token -d grant_type=client_credentials \\',
      '  -d client_id="$ACME_CLIENT_ID" -d client_secret="$ACME_CLIENT_SECRET" | jq -r .access_token)',
      'curl -s -X POST https://sandbox.api.example.com/v1/sandbox/esims/8900000000000000011/simulate \\',
      '  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -d \'{"action": "installed"}\' > /dev/null',
      '```',
      '',
      '```python run',
      'print(undefined_name)',
      '```',
      '',
      '```js',
      'console.log(1);',
      '```',
    ].join('\n');
    writeFileSync(file, source);
    const blocks = pageBlocks(file, source);
    expect(blocks.map((block) => block.classification.kind)).toEqual(['run', 'run', 'invalid']);
    const scopes = scopesFor(contract, requiredScopeOperations(file, source));
    expect(scopes).toEqual(['catalog:read']);
    const {problems} = await runPage(file, blocks, scopes);
    const page = relative(file);
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\[bash\\] ${page}:5 \\(bash\\): POST /v1/sandbox/esims/8900000000000000011/simulate answered 403 \\(insufficient_scope.*esims:write`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^\\[python\\] ${page}:12 \\(python\\): the python session exited with code 1:[\\s\\S]*NameError`),
      ),
    ]);
  });
});

test('a Node sample calling a method the SDK does not have fails the type check, naming the line', () => {
  const source = [
    '```ts sdk',
    "import { AcmeConnect } from '@acme-connect/sdk';",
    "const acme = new AcmeConnect({ clientId: 'a', clientSecret: 'b', environment: 'sandbox' });",
    'await acme.orders.list();',
    '```',
  ].join('\n');
  const blocks = pageBlocks(path.join(ROOT, 'docs', 'broken.mdx'), source);
  const {problems} = typeCheckSamples(blocks);
  expect(problems).toEqual([
    expect.stringMatching(/^docs\/broken\.mdx:4 \(ts\): TS2339 Property 'list' does not exist/),
  ]);
});
