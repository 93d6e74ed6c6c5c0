// The webhook event catalogue: one payload per event type, from the contract's examples of the `event` webhook.
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
