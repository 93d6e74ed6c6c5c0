/**
 * Runs an exported function of a TypeScript module in a worker thread. For CPU-bound build steps
 * whose result nothing needs until `postBuild`: on CI's 2 cores the second core idles while
 * Docusaurus loads the site on the main thread, so work moved here overlaps it instead of delaying
 * it. The module is loaded with jiti, as Docusaurus loads plugins; arguments and result are copied
 * with the structured clone algorithm (plain data, Maps, Sets). The worker keeps the process alive
 * until it answers, so a build cannot end before the work is written.
 */
import {Worker} from 'node:worker_threads';

type WorkerRequest = {modulePath: string; exportName: string; args: unknown[]};
type WorkerReply = {result: unknown} | {error: string};

// Plain CommonJS, evaluated as the worker's entry: it loads the TypeScript module with jiti.
const BOOTSTRAP = `
const {parentPort, workerData} = require('node:worker_threads');
const {createRequire} = require('node:module');
const {modulePath, exportName, args} = workerData;
Promise.resolve()
  .then(() => {
    const load = createRequire(modulePath)('jiti')(modulePath, {interopDefault: false});
    const run = load(modulePath)[exportName];
    if (typeof run !== 'function') throw new Error(modulePath + ' exports no function ' + exportName);
    return run(...args);
  })
  .then(
    (result) => parentPort.postMessage({result}),
    (error) => parentPort.postMessage({error: error instanceof Error ? error.stack || error.message : String(error)}),
  );
`;

/** Calls `exportName(...args)` from `modulePath` in a new worker thread; resolves with its (awaited) result. */
export function runInWorker<Result>(modulePath: string, exportName: string, args: unknown[] = []): Promise<Result> {
  const request: WorkerRequest = {modulePath, exportName, args};
  return new Promise<Result>((resolve, reject) => {
    const worker = new Worker(BOOTSTRAP, {eval: true, workerData: request});
    let answered = false;
    worker.once('message', (reply: WorkerReply) => {
      answered = true;
      if ('error' in reply) {
        reject(new Error(`${exportName} (in a worker thread) failed: ${reply.error}`));
      } else {
        resolve(reply.result as Result);
      }
      void worker.terminate();
    });
    worker.once('error', (error) => {
      answered = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) {
        reject(new Error(`${exportName} (in a worker thread) exited with code ${code} before answering`));
      }
    });
  });
}
