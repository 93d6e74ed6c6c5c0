// The webhook event catalogue: one payload per event type, from the contract's examples of the `event` webhook.
import {codeBlockData, type CodeBlockData, type Highlighter} from '../highlight';
import type {OpenApiDocument} from './openapi';

export type WebhookEventExample = {
  type: string;
  /** When it is sent (the example's `summary`). */
  when: string;
  payload: {type: string; [key: string]: unknown};
};

type EventMedia = {examples?: Record<string, {summary?: string; value?: {type?: string}}>};

/** Every `EventType` in the contract's order, each with its example; throws naming what is missing. */
export function webhookEventExamples(document: OpenApiDocument): WebhookEventExample[] {
  const types = (document.components.schemas?.EventType as {enum?: string[]} | undefined)?.enum ?? [];
  type Webhooks = Record<string, {post?: {requestBody?: {content?: Record<string, EventMedia>}}}> | undefined;
  const webhook = (document.webhooks as Webhooks)?.event;
  const examples = webhook?.post?.requestBody?.content?.['application/json']?.examples ?? {};
  const problems = [
    ...types
      .filter((type) => examples[type]?.value?.type !== type || !examples[type]?.summary)
      .map((type) => `no example "${type}" of that type with a summary (when it is sent)`),
    ...Object.keys(examples)
      .filter((key) => !types.includes(key))
      .map((key) => `example "${key}" is not an EventType`),
  ];
  if (problems.length > 0) {
    throw new Error(`api/openapi.yaml, webhooks.event examples: ${problems.join('; ')}`);
  }
  return types.map((type) => ({
    type,
    when: examples[type]!.summary!,
    payload: examples[type]!.value as WebhookEventExample['payload'],
  }));
}

/** What the catalogue page renders: each event's payload, and the test vector's raw body, highlighted at build time. */
export type WebhookEventBlocks = {
  events: {type: string; when: string; payload: CodeBlockData}[];
  /** The example delivery a verifier must accept: the event's payload minified, exactly the signed bytes. */
  testVector: {event: string; body: CodeBlockData};
};

export function webhookEventBlocks(
  examples: readonly WebhookEventExample[],
  highlight: Highlighter,
  testVectorEvent: string,
): WebhookEventBlocks {
  const signed = examples.find(({type}) => type === testVectorEvent);
  if (!signed) {
    throw new Error(`SAMPLES.webhookTestVector.event "${testVectorEvent}" has no example in the contract`);
  }
  return {
    events: examples.map(({type, when, payload}) => ({
      type,
      when,
      payload: codeBlockData(highlight, JSON.stringify(payload, null, 2), 'json'),
    })),
    testVector: {event: testVectorEvent, body: codeBlockData(highlight, JSON.stringify(signed.payload), 'json')},
  };
}
