import {expect, test} from '@playwright/test';

import {runnerPace} from './runner-pace';

const request = (operation: string, prerequest: string[] = []) => ({operation, prerequest, test: []});

test('the delay spreads every API request of a pass, scripted ones included, under the limit', () => {
  const requests = [
    request('POST /oauth/token'),
    request('GET /v1/packages'),
    request('POST /v1/refunds', ["pm.sendRequest({url: '/v1/orders'}, () => {});"]),
  ];
  const pace = runnerPace(requests, 60, 'POST /oauth/token');
  expect(pace).toMatchObject({runnerRequests: 3, apiRequests: 3});
  // Three Runner requests a pass, three API requests: one per second at 60 a minute.
  expect(pace.delayMs).toBe(1000);
  expect((60_000 / (pace.delayMs * pace.runnerRequests)) * pace.apiRequests).toBeLessThanOrEqual(60);
});
