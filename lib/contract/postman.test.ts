import {expect, test} from '@playwright/test';

import {ERROR_CODES, IDEMPOTENCY} from '../../src/constants/behaviour';
import {IDEMPOTENCY_KEY_VARIABLE_PREFIX, statusTestScript} from './postman';

type Answer = {status: number; code?: string};

/** Runs the collection's test script after a POST with this answer; true when it released the key. */
function releasesKey(answer: Answer): boolean {
  const unset: string[] = [];
  const pm = {
    request: {method: 'POST'},
    info: {requestName: 'Create an order'},
    response: {
      code: answer.status,
      status: String(answer.status),
      json: () => (answer.code ? {error: {code: answer.code}} : {id: 'ord_1'}),
      text: () => '',
    },
    test: () => undefined,
    expect: {fail: () => undefined},
    environment: {set: () => undefined},
    collectionVariables: {unset: (name: string) => unset.push(name)},
  };
  new Function('pm', statusTestScript())(pm);
  return unset.includes(`${IDEMPOTENCY_KEY_VARIABLE_PREFIX}Create an order`);
}

test('Postman test script: the Idempotency-Key of a POST is released after every answer the model stores, and kept after the others (but for a key of another body)', () => {
  const answers: Answer[] = [{status: 200}, {status: 201}, ...ERROR_CODES.map(({status, code}) => ({status, code}))];
  for (const answer of answers) {
    const anotherBody = answer.code === 'idempotency_key_reused';
    const expected = IDEMPOTENCY.isStored(answer.status, answer.code) || anotherBody;
    expect(releasesKey(answer), `${answer.status} ${answer.code ?? ''}`).toBe(expected);
  }
  // The cases the retry policies hinge on, spelled out.
  expect(releasesKey({status: 402, code: 'insufficient_balance'})).toBe(true);
  expect(releasesKey({status: 503, code: 'maintenance'})).toBe(false);
  expect(releasesKey({status: 429, code: 'rate_limited'})).toBe(false);
  expect(releasesKey({status: 409, code: 'idempotency_in_progress'})).toBe(false);
});
