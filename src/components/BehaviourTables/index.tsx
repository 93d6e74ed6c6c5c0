// Tables and rule sentences rendered from the behaviour model (src/constants/behaviour.ts), so a
// page never restates a rule the sandbox enforces and the SDK and samples decide from.
import {Fragment, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {SANDBOX} from '@site/src/constants/api';
import {
  ACTIONS,
  CLOCK_STARTS,
  ERROR_CODES,
  IDEMPOTENCY,
  IMPLICIT_SAME_KEY,
  PAGINATION,
  REFUND_RULES,
  RETRY_POLICIES,
  VALIDITY_RULES,
  WIDGET_CAPS,
  action,
  errorRule,
  type Action,
  type AnsweredBy,
  type ActionId,
  type Actor,
  type BalanceMovement,
  type RetryPolicy,
} from '@site/src/constants/behaviour';
import ScrollableTable from '@site/src/components/ScrollableTable';
import {withCode} from '@site/src/components/ApiTables/withCode';

/** Each error code's section on Main concepts (the anchors of the API's `doc_url`). */
const ERRORS_PAGE = '/getting-started/main-concepts';

const ACTORS: Record<Actor, string> = {you: 'You', traveller: 'The traveller', acme: 'Acme'};

function listOf(items: readonly ReactNode[]): ReactNode {
  return items.map((item, index) => (
    <Fragment key={index}>
      {index === 0 ? '' : index === items.length - 1 ? ' and ' : ', '}
      {item}
    </Fragment>
  ));
}

function codeList(values: readonly string[]): ReactNode {
  return listOf(values.map((value) => <code key={value}>{value}</code>));
}

function events(action: Action): ReactNode {
  if (action.events.length === 0) {
    return 'None';
  }
  return listOf(
    action.events.map((event) =>
      event.endsWith(' ×') ? (
        <Fragment key={event}>
          <code>{event.slice(0, -2)}</code> (one per eSIM)
        </Fragment>
      ) : (
        <code key={event}>{event}</code>
      ),
    ),
  );
}

function movement({type, direction, amount, perEsim}: BalanceMovement): ReactNode {
  return (
    <>
      <code>{type}</code> {direction} of {withCode(amount)}
      {perEsim ? ', one per eSIM' : ''}
    </>
  );
}

function balance(action: Action): ReactNode {
  return action.balance.length === 0 ? 'None' : listOf(action.balance.map((entry) => movement(entry)));
}

/** The operation that triggers the action, with the sandbox's way when it has one (`Sandbox:` when it is not an API call). */
function trigger(action: Action, labelled = true): ReactNode {
  return (
    <>
      {action.operation && <code>{action.operation}</code>}
      {action.operation && action.sandboxTrigger && ' with '}
      {action.sandboxTrigger && (
        <>
          {action.operation || !labelled ? '' : 'Sandbox: '}
          {withCode(action.sandboxTrigger)}
        </>
      )}
    </>
  );
}

/** Every action: who does it, what triggers it, the webhook events it sends and the money it moves. */
export function ActionTable(): ReactNode {
  return (
    <ScrollableTable aria-label="Actions, their events and balance transactions">
      <thead>
        <tr>
          <th scope="col">Action</th>
          <th scope="col">Who</th>
          <th scope="col">Operation or sandbox trigger</th>
          <th scope="col">Webhook events</th>
          <th scope="col">Balance transactions</th>
        </tr>
      </thead>
      <tbody>
        {ACTIONS.map((action: Action) => (
          <tr key={action.id}>
            <th scope="row">
              {withCode(action.name)}
              {action.note && (
                <>
                  .<br />
                  <small>{withCode(action.note)}</small>
                </>
              )}
            </th>
            <td>{ACTORS[action.by]}</td>
            <td>{trigger(action)}</td>
            <td>{events(action)}</td>
            <td>{balance(action)}</td>
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  );
}

/** How to make the sandbox answer every error code and send every event no API call of yours causes. */
export function SandboxTriggerTable(): ReactNode {
  const sandboxActions = ACTIONS.filter((action: Action) => action.by !== 'you' || action.sandboxTrigger);
  return (
    <ScrollableTable aria-label="How to trigger each error and event in the sandbox">
      <thead>
        <tr>
          <th scope="col">Error or event</th>
          <th scope="col">What you see</th>
          <th scope="col">How to trigger it in the sandbox</th>
        </tr>
      </thead>
      <tbody>
        {ERROR_CODES.map(({code, status, sandboxTrigger}) => (
          <tr key={code}>
            <th scope="row">
              <Link to={`${ERRORS_PAGE}#${code}`}>
                <code>{code}</code>
              </Link>
            </th>
            <td>HTTP {status}</td>
            <td>{sandboxTrigger ? withCode(sandboxTrigger) : 'Only Live answers it'}</td>
          </tr>
        ))}
        {sandboxActions.map((action: Action) => (
          <tr key={action.id}>
            <th scope="row">{withCode(action.name)}</th>
            <td>
              {action.events.length > 0 ? events(action) : 'No event'}
              {action.balance.length > 0 && <>; {balance(action)}</>}
            </td>
            <td>{trigger(action, false)}</td>
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  );
}

/** The header that makes the sandbox answer any error code (for inline prose). */
export function SandboxErrorHeader(): ReactNode {
  return <code>{SANDBOX.errorHeader}</code>;
}

/** The validity rules, one sentence each. */
export function ValidityRules(): ReactNode {
  return (
    <ul>
      {VALIDITY_RULES.sentences.map((sentence) => (
        <li key={sentence}>{withCode(sentence)}</li>
      ))}
    </ul>
  );
}

/** Which operations can answer a code, in the model's terms (`AnsweredBy`). */
const ANSWERED_BY: Record<Exclude<AnsweredBy, readonly string[]>, ReactNode> = {
  every: 'Any operation can answer it.',
  input: 'Any operation that takes a parameter or a body can answer it.',
  body: 'Any operation that takes a JSON body can answer it.',
  key: (
    <>
      Any operation that takes an <code>Idempotency-Key</code> can answer it.
    </>
  ),
  scoped: 'Any operation whose token needs a scope can answer it.',
};

/**
 * The first words of an error code's own section: its status, its retry policy and the operations that answer it,
 * from the model, so the section's prose cannot give the code another policy than the table and the API's `retry`
 * field.
 */
export function ErrorHeadline({code}: {code: string}): ReactNode {
  const rule = errorRule(code);
  return (
    <>
      HTTP {rule.status}, <code>retry</code>: <code>{rule.retry}</code> (
      {RETRY_POLICIES[rule.retry].label.toLowerCase()}
      ).{' '}
      {typeof rule.answeredBy === 'string' ? (
        ANSWERED_BY[rule.answeredBy]
      ) : (
        <>Answered by {codeList(rule.answeredBy)}.</>
      )}
    </>
  );
}

/** Each retry policy, what a client does, and the error codes that carry it in `error.retry`. */
export function RetryPolicyList(): ReactNode {
  const policies = Object.keys(RETRY_POLICIES) as RetryPolicy[];
  return (
    <dl>
      {policies.map((policy) => {
        const codes = ERROR_CODES.filter((rule) => rule.retry === policy).map((rule) => rule.code);
        return (
          <Fragment key={policy}>
            <dt>
              <code>{policy}</code> — {RETRY_POLICIES[policy].label}
            </dt>
            <dd>
              {withCode(RETRY_POLICIES[policy].meaning)} Codes: {codes.length > 0 ? codeList(codes) : 'none'}.
            </dd>
          </Fragment>
        );
      })}
    </dl>
  );
}

/** What is stored under an Idempotency-Key, for how long, and how a replay is marked. */
export function IdempotencyRules(): ReactNode {
  return (
    <ul>
      <li>
        Required on {codeList(IDEMPOTENCY.requiredOn)}: send an <code>Idempotency-Key</code> header (a UUID) and reuse
        it for every retry of the same purchase, until it gets an answer that is stored.
      </li>
      <li>
        An answer is stored for {IDEMPOTENCY.retentionHours} hours: the same request with the same key within that time
        answers the stored result again, with the header <code>{`${IDEMPOTENCY.replayHeader}: true`}</code>, and does
        nothing twice. {withCode(IDEMPOTENCY.replaySentence)}
      </li>
      <li>
        After {IDEMPOTENCY.retentionHours} hours the key is forgotten, and the same request would buy again. So before
        you retry a purchase older than that, look it up by its <code>customer_reference</code> (for example{' '}
        <code>GET /v1/orders?customer_reference=…</code>), or a top-up in its eSIM’s top-ups (
        <code>GET /v1/esims/{'{iccid}'}/topups</code>), and buy again only if nothing was made.
      </li>
      <li>{withCode(IDEMPOTENCY.storedSentence)}</li>
      <li>
        {withCode(IDEMPOTENCY.sameRequestSentence)} See{' '}
        <Link to={`${ERRORS_PAGE}#idempotency_key_reused`}>
          <code>idempotency_key_reused</code>
        </Link>
        .
      </li>
      <li>
        The same key while its first request still runs answers{' '}
        <Link to={`${ERRORS_PAGE}#idempotency_in_progress`}>
          <code>idempotency_in_progress</code>
        </Link>{' '}
        (retry it).
      </li>
    </ul>
  );
}

/** How a cursor walks a list: what an item created during a walk does, and why filters stay the same. */
export function PaginationRule(): ReactNode {
  return <>{withCode(PAGINATION.cursorSentence)}</>;
}

/** The failures without a `retry` field that a client retries as `same_key`. */
export function ImplicitSameKey(): ReactNode {
  return <>{withCode(IMPLICIT_SAME_KEY)}</>;
}

/** What a replayed answer is, and how to read the state now. */
export function ReplayRule(): ReactNode {
  return <>{withCode(IDEMPOTENCY.replaySentence)}</>;
}

/** What a refund returns (the package; the applied top-ups only if the model says so). */
export function RefundRule(): ReactNode {
  return <>{withCode(REFUND_RULES.sentence)}</>;
}

/** What is never refunded, as a list. */
export function NotRefundedList(): ReactNode {
  return (
    <ul>
      {REFUND_RULES.notRefunded.map((item) => (
        <li key={item}>{withCode(item)}</li>
      ))}
    </ul>
  );
}

/** Why a refund or cancel waits for the eSIM's pending top-ups, and what to do. */
export function PendingTopupRule(): ReactNode {
  return <>{withCode(REFUND_RULES.pendingTopupSentence)}</>;
}

/** Which scopes a cancel needs, and why (it moves refund money). */
export function CancelScopeRule(): ReactNode {
  return <>{withCode(REFUND_RULES.scopeSentence)}</>;
}

/** What the widget session's caps count. */
export function WidgetCapsSentence(): ReactNode {
  return <>{withCode(WIDGET_CAPS.sentence)}</>;
}

/** Which orders and top-ups, by status, count against the widget session's caps. */
export function WidgetCapsCounted(): ReactNode {
  return <>{withCode(WIDGET_CAPS.countedSentence)}</>;
}

/** One action's webhook events and balance transactions, as a sentence (`id` of ACTIONS). */
export function ActionEffects({id}: {id: ActionId}): ReactNode {
  const found = action(id);
  return (
    <>
      Webhook events: {events(found)}. Balance transactions: {balance(found)}.
      {found.note && <> {withCode(found.note)}</>}
    </>
  );
}

/** When the validity clock of a package with this `activation_policy` starts. */
export function ClockStart({policy}: {policy: keyof typeof CLOCK_STARTS}): ReactNode {
  return <>{withCode(CLOCK_STARTS[policy])}</>;
}
