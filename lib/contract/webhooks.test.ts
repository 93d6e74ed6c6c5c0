import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {apiFacts} from './facts';
import {renderOpenApi} from './openapi';
import {exampleValidator} from './validator';
import {webhookEventExamples, type WebhookEventExample} from './webhooks';

const SOURCE = readFileSync(path.resolve(__dirname, '../../api/openapi.yaml'), 'utf8');
const EVENT = {method: 'WEBHOOK', path: 'event', target: 'request', pointer: '', abridged: false} as const;

/** `data.object` is the resource as the API answers it: the answer of the operation that reads or creates it. */
const RESOURCE_ANSWER = {
  order: {method: 'GET', path: '/v1/orders/{order_id}', target: 200},
  esim: {method: 'GET', path: '/v1/esims/{iccid}', target: 200},
  topup: {method: 'POST', path: '/v1/esims/{iccid}/topups', target: 201},
  refund: {method: 'POST', path: '/v1/refunds', target: 201},
  balance: {method: 'GET', path: '/v1/balance', target: 200},
} as const;

function problemsOf(validator: ReturnType<typeof exampleValidator>, payload: WebhookEventExample['payload']): string[] {
  const {type} = payload;
  const family = type.split('.')[0] as keyof typeof RESOURCE_ANSWER;
  const resource = RESOURCE_ANSWER[family];
  if (!resource) return [`${type}: no resource for the family "${family}"`];
  const object = (payload.data as {object?: unknown} | undefined)?.object;
  return [
    ...validator.validate(payload, EVENT),
    ...validator
      .validate(object, {...resource, pointer: '', abridged: false})
      .map((problem) => `data.object ${problem}`),
    ...(type === 'esim.usage_threshold' && typeof (payload.data as {threshold?: unknown}).threshold !== 'number'
      ? ['data.threshold is missing']
      : []),
  ].map((problem) => `${type}: ${problem}`);
}

test.describe('the webhook event catalogue', () => {
  test('has one example per event type of the contract, in its order, each a valid Event carrying its resource; a wrong resource, an invented field, an example of no event type or an event type without an example fails', () => {
    const document = renderOpenApi(SOURCE, apiFacts());
    const eventTypes = (document.components.schemas!.EventType as {enum: string[]}).enum;
    const examples = webhookEventExamples(document);
    expect(examples.map(({type}) => type)).toEqual(eventTypes);
    const validator = exampleValidator(document);
    console.log(`webhook events with a validated payload: ${examples.length} of ${eventTypes.length}`);
    expect(examples.flatMap(({payload}) => problemsOf(validator, payload))).toEqual([]);

    // data.object is checked as the resource of the event's type.
    const [order, esim, usage] = ['order.completed', 'esim.activated', 'esim.usage_threshold'].map(
      (type) => examples.find((example) => example.type === type)!.payload,
    );
    const object = (payload: typeof order) => (payload.data as {object: Record<string, unknown>}).object;
    const esimCarryingAnOrder = {...esim, data: {object: object(order)}};
    expect(problemsOf(validator, esimCarryingAnOrder).join('\n')).toMatch(/missing required field `iccid`/);
    const invented = {...order, data: {object: {...object(order), tracking_url: 'https://example.com'}}};
    const inventedField = 'order.completed: data.object /: field `tracking_url` is not in the contract';
    expect(problemsOf(validator, invented)).toContain(inventedField);
    const usageWithoutThreshold = {...usage, data: {object: object(usage)}};
    expect(problemsOf(validator, usageWithoutThreshold)).toEqual(['esim.usage_threshold: data.threshold is missing']);

    // An example of no event type fails, naming it.
    type Webhooks = {event: {post: {requestBody: {content: Record<string, {examples: Record<string, unknown>}>}}}};
    const {examples: written} = (document.webhooks as Webhooks).event.post.requestBody.content['application/json']!;
    written['esim.renamed'] = written['esim.expired'];
    expect(() => webhookEventExamples(document)).toThrow(/example "esim\.renamed" is not an EventType/);
    const withNewType = SOURCE.replace(/(EventType:\n\s+type: string\n\s+enum: \[)/, '$1sim.swapped, ');
    expect(() => webhookEventExamples(renderOpenApi(withNewType, apiFacts()))).toThrow(
      /webhooks\.event examples: no example "sim\.swapped"/,
    );
  });
});
