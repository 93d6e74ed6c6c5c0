import {readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {apiFacts} from './facts';
import {renderOpenApi, type OpenApiDocument} from './openapi';
import {exampleValidator} from './validator';
import {webhookEventExamples} from './webhooks';

const SOURCE = readFileSync(path.resolve(__dirname, '../../api/openapi.yaml'), 'utf8');
const EVENT = {method: 'WEBHOOK', path: 'event', target: 'request', pointer: '', abridged: false} as const;

const contract = (): OpenApiDocument => renderOpenApi(SOURCE, apiFacts());
const eventTypes = (document: OpenApiDocument) => (document.components.schemas!.EventType as {enum: string[]}).enum;

test.describe('the webhook event catalogue', () => {
  test('has one example per event type of the contract, in its order, each valid against the Event schema', () => {
    const document = contract();
    const examples = webhookEventExamples(document);
    expect(examples.map(({type}) => type)).toEqual(eventTypes(document));
    const validator = exampleValidator(document);
    const problems = examples.flatMap(({type, payload}) =>
      validator.validate(payload, EVENT).map((problem) => `${type}: ${problem}`),
    );
    console.log(`webhook events with a validated payload: ${examples.length} of ${eventTypes(document).length}`);
    expect(problems).toEqual([]);
  });

  test("an event's data.object is checked as the resource of its type: wrong resource, invented field", () => {
    const document = contract();
    const validator = exampleValidator(document);
    const examples = webhookEventExamples(document);
    const order = examples.find(({type}) => type === 'order.completed')!.payload;
    const esim = examples.find(({type}) => type === 'esim.activated')!.payload;
    const data = (payload: typeof order) => payload.data as {object: Record<string, unknown>};

    const esimCarryingAnOrder = {...esim, data: {object: data(order).object}};
    expect(validator.validate(esimCarryingAnOrder, EVENT).join('\n')).toMatch(/missing required field `iccid`/);

    const invented = {...order, data: {object: {...data(order).object, tracking_url: 'https://example.com'}}};
    expect(validator.validate(invented, EVENT)).toContain('/data/object: field `tracking_url` is not in the contract');

    const thresholdMissing = examples.find(({type}) => type === 'esim.usage_threshold')!.payload;
    expect(validator.validate({...thresholdMissing, data: {object: data(thresholdMissing).object}}, EVENT)).toEqual([
      expect.stringMatching(/missing required field `threshold`/),
    ]);
  });

  test('a new event type without an example, or an example of no event type, fails naming it', () => {
    const withNewType = SOURCE.replace(/(EventType:\n\s+type: string\n\s+enum: \[)/, '$1sim.swapped, ');
    expect(() => webhookEventExamples(renderOpenApi(withNewType, apiFacts()))).toThrow(
      /webhooks\.event examples: no example "sim\.swapped"/,
    );
    const document = contract();
    type Webhooks = {event: {post: {requestBody: {content: Record<string, {examples: Record<string, unknown>}>}}}};
    const {examples} = (document.webhooks as Webhooks).event.post.requestBody.content['application/json']!;
    examples['esim.renamed'] = examples['esim.expired'];
    expect(() => webhookEventExamples(document)).toThrow(/example "esim\.renamed" is not an EventType/);
  });
});
