// One payload per event type, from the contract's examples (its own data file, so only this page loads them),
// highlighted at build time by plugins/api-reference.
import type {ReactNode} from 'react';
import CodeBlock from '@theme/CodeBlock';
import Details from '@theme/Details';
import webhookEvents from '@generated/api-reference/default/webhook-events.json';
import {SAMPLES} from '@site/src/constants/api';
import {ACTIONS, type Action, type Actor} from '@site/src/constants/behaviour';
import ScrollableTable from '@site/src/components/ScrollableTable';
import {withCode} from '../ApiTables/withCode';

const ACTORS: Record<Actor, string> = {you: 'you', traveller: 'the traveller', acme: 'Acme'};

/** The model's mark for an event sent once per eSIM of the order. */
const PER_ESIM = ' ×';

/** The actions of the behaviour model that send this event; every event of the contract needs one. */
function sendersOf(type: string): {action: Action; perEsim: boolean}[] {
  const senders = (ACTIONS as readonly Action[]).flatMap((action) => {
    const sent = action.events.find((event) => event === type || event === `${type}${PER_ESIM}`);
    return sent ? [{action, perEsim: sent.endsWith(PER_ESIM)}] : [];
  });
  if (senders.length === 0) {
    throw new Error(`No action of the behaviour model (ACTIONS) sends the contract's event "${type}"`);
  }
  return senders;
}

function Senders({type}: {type: string}): ReactNode {
  return (
    <>
      <p>Sent by:</p>
      <ul>
        {sendersOf(type).map(({action, perEsim}) => (
          <li key={action.id}>
            {withCode(action.name)}: by {ACTORS[action.by]}
            {action.operation && (
              <>
                , <code>{action.operation}</code>
              </>
            )}
            {action.sandboxTrigger && <>; in the sandbox, {withCode(action.sandboxTrigger)}</>}
            {perEsim && <>; one event per eSIM of the order</>}.
          </li>
        ))}
      </ul>
    </>
  );
}

export default function WebhookEventCatalogue(): ReactNode {
  return (
    <div className="webhook-event-catalogue">
      {webhookEvents.events.map(({type, when, payload}) => (
        <Details
          key={type}
          id={type}
          summary={
            <summary>
              <code>{type}</code>: {withCode(when)}
            </summary>
          }>
          <Senders type={type} />
          <CodeBlock language={payload.language} title={`${type} payload`} highlighted={payload.html}>
            {payload.code}
          </CodeBlock>
        </Details>
      ))}
    </div>
  );
}

/** The example delivery a verifier must accept, and reject once any byte of it changes. */
export function WebhookTestVector(): ReactNode {
  const {timestamp, signature} = SAMPLES.webhookTestVector;
  const {event, body} = webhookEvents.testVector;
  return (
    <>
      <ScrollableTable>
        <thead>
          <tr>
            <th scope="col">Input</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Signing secret</th>
            <td>
              <code>{SAMPLES.webhookSecret}</code>
            </td>
          </tr>
          <tr>
            <th scope="row">
              <code>X-Webhook-Timestamp</code>
            </th>
            <td>
              <code>{timestamp}</code>
            </td>
          </tr>
          <tr>
            <th scope="row">
              <code>X-Webhook-Signature</code>
            </th>
            <td>
              <code>v1={signature}</code>
            </td>
          </tr>
        </tbody>
      </ScrollableTable>
      <CodeBlock
        language={body.language}
        title={`Raw body (the ${event} payload, minified, no trailing newline)`}
        highlighted={body.html}>
        {body.code}
      </CodeBlock>
    </>
  );
}
