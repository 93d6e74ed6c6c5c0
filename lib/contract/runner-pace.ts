// How fast a Postman Collection Runner pass may go without meeting the sandbox's per-minute limit.

type RunnerRequest = {operation: string; prerequest: readonly string[]; test: readonly string[]};

export type RunnerPace = {
  /** Requests the Runner sends in one pass over every folder. */
  runnerRequests: number;
  /** API requests one pass makes, counting those the request scripts send themselves (pm.sendRequest). */
  apiRequests: number;
  /** The Runner delay, in ms, that keeps any number of iterations under the limit (rounded up to 100 ms). */
  delayMs: number;
};

/**
 * The token endpoint has a limit of its own, so its requests are left out of `apiRequests`. The
 * Runner waits the delay only between its own requests, while script requests go out at once, so
 * the delay spreads a pass's API requests over its Runner requests.
 */
export function runnerPace(
  requests: readonly RunnerRequest[],
  requestsPerMinute: number,
  tokenOperation: string,
): RunnerPace {
  const scripted = (request: RunnerRequest) =>
    [...request.prerequest, ...request.test].join('\n').split('pm.sendRequest(').length - 1;
  const apiRequests = requests.reduce(
    (sum, request) => sum + (request.operation === tokenOperation ? 0 : 1) + scripted(request),
    0,
  );
  const exact = (60_000 * apiRequests) / (requests.length * requestsPerMinute);
  return {runnerRequests: requests.length, apiRequests, delayMs: Math.ceil(exact / 100) * 100};
}
