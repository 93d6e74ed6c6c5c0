// Tables rendered from the contract and src/constants/api.ts, so pages never restate a fact.
import {Fragment, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {ENVIRONMENTS, LIMITS, POSTMAN} from '@site/src/constants/api';
import {ERROR_CODES, RETRY_POLICIES} from '@site/src/constants/behaviour';
import contract from '@generated/api-reference/default/contract.json';
import {scopesFor} from '../../../lib/contract/scopes';
import {runnerPace} from '../../../lib/contract/runner-pace';
import {ENVIRONMENT_COLUMNS, ENVIRONMENT_ROWS} from './environmentRows';
import ScrollableTable from '@site/src/components/ScrollableTable';
import {withCode} from './withCode';
import {
  ESIM_STATES,
  ESIM_TRANSITIONS,
  ORDER_STATES,
  ORDER_TRANSITIONS,
  PREVIOUS_STATUS,
  STATE_RULES,
  TOPUP_STATES,
  TOPUP_TRANSITIONS,
} from '@site/src/constants/behaviour';

export function ScopeTable(): ReactNode {
  return (
    <ScrollableTable aria-label="Scopes and what they allow">
      <thead>
        <tr>
          <th scope="col">Scope</th>
          <th scope="col">Allows</th>
          <th scope="col">Operations</th>
        </tr>
      </thead>
      <tbody>
        {contract.scopes.map(({scope, description}) => (
          <tr key={scope}>
            <td>
              <code>{scope}</code>
            </td>
            <td>{withCode(description)}</td>
            {/* From the contract, so a new operation is listed under its scope without a second edit. */}
            <td>
              {codes(
                Object.entries(contract.operationScopes)
                  .filter(([, scopes]) => scopes.includes(scope))
                  .map(([operation]) => operation),
              )}
            </td>
          </tr>
        ))}
        {contract.tokenOnlyOperations.length > 0 && (
          <tr>
            <td>None</td>
            <td>Any valid access token of the credential, whatever its scopes.</td>
            <td>{codes(contract.tokenOnlyOperations)}</td>
          </tr>
        )}
      </tbody>
    </ScrollableTable>
  );
}

export function EnvironmentTable(): ReactNode {
  return (
    <ScrollableTable>
      <thead>
        <tr>
          <td />
          {ENVIRONMENT_COLUMNS.map((label) => (
            <th key={label} scope="col">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ENVIRONMENT_ROWS.map(({label, cells}) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            {cells.map((values, column) => (
              <td key={ENVIRONMENT_COLUMNS[column]}>
                {values.map((value, index) => (
                  <span key={value}>
                    {index === 0 ? '' : ' / '}
                    <code>{value}</code>
                  </span>
                ))}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  );
}

/** Anchors match the API's doc_url. */
export function ErrorCodeTable(): ReactNode {
  return (
    <ScrollableTable aria-label="Error codes">
      <thead>
        <tr>
          <th scope="col">HTTP</th>
          <th scope="col">Code</th>
          <th scope="col">Meaning</th>
          <th scope="col">SDK class</th>
          <th scope="col">
            <code>retry</code>
          </th>
          <th scope="col">What to do</th>
        </tr>
      </thead>
      <tbody>
        {ERROR_CODES.map(({code, status, summary, sdkClass, retry, fix}) => (
          <tr key={code}>
            <td>{status}</td>
            <th scope="row">
              <Link to={`#${code}`}>
                <code>{code}</code>
              </Link>
            </th>
            <td>{withCode(summary)}</td>
            <td>
              <code>{sdkClass}</code>
            </td>
            <td>
              <code>{retry}</code>
            </td>
            <td>
              {RETRY_POLICIES[retry].label}. {withCode(fix)}
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  );
}

/** `samples` marks the sentence the doc tests read: they run the page's samples with exactly these scopes. */
export function RequiredScopes({operations}: {operations: readonly string[]; samples?: boolean}): ReactNode {
  const scopes = scopesFor(contract, operations);
  return scopes.map((scope, index) => (
    <span key={scope}>
      {index === 0 ? '' : index === scopes.length - 1 ? ' and ' : ', '}
      <code>{scope}</code>
    </span>
  ));
}

// The Postman collection: everything below is read from the generated collection and environments.

const postman = contract.postman;

function listOf(items: readonly ReactNode[]): ReactNode {
  return items.map((item, index) => (
    <Fragment key={index}>
      {index === 0 ? '' : index === items.length - 1 ? ' and ' : ', '}
      {item}
    </Fragment>
  ));
}

const lowerFirst = (text: string) => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
const codes = (values: readonly string[]) => listOf(values.map((value) => <code key={value}>{value}</code>));
const names = (values: readonly string[]) => listOf(values.map((value) => <strong key={value}>{value}</strong>));

function requestFor(operation: string) {
  for (const folder of postman.folders) {
    const request = folder.requests.find((candidate) => candidate.operation === operation);
    if (request) {
      return {folder, request};
    }
  }
  throw new Error(`No request of the Postman collection sends "${operation}"`);
}

export function PostmanFolderTable(): ReactNode {
  return (
    <ScrollableTable>
      <thead>
        <tr>
          <th scope="col">Folder</th>
          <th scope="col">Covers</th>
          <th scope="col">Requests</th>
          <th scope="col">Scopes its requests need together</th>
        </tr>
      </thead>
      <tbody>
        {postman.folders.map((folder) => {
          const scopes = scopesFor(
            contract,
            folder.requests.map((request) => request.operation),
          );
          return (
            <tr key={folder.name}>
              <td>
                <code>{folder.name}</code>
              </td>
              <td>{withCode(folder.description)}</td>
              <td>{folder.requests.map((request) => request.name).join(', ')}</td>
              <td>{scopes.length > 0 ? codes(scopes) : 'none'}</td>
            </tr>
          );
        })}
      </tbody>
    </ScrollableTable>
  );
}

/** Whether the request's own pre-request script (rather than its test) sets the variable. */
function setsInPreRequest(requestName: string, key: string): boolean {
  const request = postman.folders
    .flatMap((folder) => folder.requests)
    .find((candidate) => candidate.name === requestName);
  return Boolean(request?.prerequest.some((line) => line.includes(`pm.environment.set('${key}'`)));
}

export function PostmanVariableTable(): ReactNode {
  return (
    <ScrollableTable>
      <thead>
        <tr>
          <th scope="col">Variable</th>
          <th scope="col">Purpose</th>
          <th scope="col">Sandbox value</th>
        </tr>
      </thead>
      <tbody>
        {postman.variables.map((variable) => {
          const setters = [
            ...(variable.setByPreRequest ? ['the pre-request script'] : []),
            ...variable.setBy.map((name) => (
              <>
                the {setsInPreRequest(name, variable.key) ? 'pre-request script' : 'test'} of <strong>{name}</strong>
              </>
            )),
          ];
          return (
            <tr key={variable.key}>
              <td>
                <code>{variable.key}</code>
              </td>
              <td>
                {withCode(variable.description)}.{setters.length > 0 && <> Set by {listOf(setters)}.</>}
              </td>
              <td>{variable.sandboxValue ? <code>{variable.sandboxValue}</code> : 'empty'}</td>
            </tr>
          );
        })}
      </tbody>
    </ScrollableTable>
  );
}

export function PostmanRequestName({operation}: {operation: string}): ReactNode {
  const {folder, request} = requestFor(operation);
  return (
    <>
      <code>{folder.name}</code> → <strong>{request.name}</strong>
    </>
  );
}

export function PostmanRunScopes(): ReactNode {
  return codes(postman.runs.happyPath.scopes);
}

/** The scopes the rest of the collection adds to the happy path's. */
export function PostmanOtherScopes(): ReactNode {
  return codes(postman.scopes.filter((scope) => !postman.runs.happyPath.scopes.includes(scope)));
}

/** How many requests a Runner pass over every folder sends, and the delay that keeps it under the sandbox limit. */
export function PostmanRunnerPace(): ReactNode {
  const pace = runnerPace(
    postman.folders.flatMap((folder) => folder.requests),
    LIMITS.sandboxRequestsPerMinute,
    `POST ${new URL(ENVIRONMENTS.sandbox.tokenUrl).pathname}`,
  );
  return (
    <>
      A pass over every folder sends {pace.runnerRequests} requests, which make {pace.apiRequests} API requests (the
      token requests have their own limit, and some requests’ scripts send one more before them).{' '}
      {pace.apiRequests <= LIMITS.sandboxRequestsPerMinute
        ? 'One pass fits in a minute, but a second iteration, or a pass right after other calls with the same credential, can go over'
        : 'Even one pass can go over'}{' '}
      the sandbox limit of {LIMITS.sandboxRequestsPerMinute} requests per minute, and then every request answers{' '}
      <code>429 rate_limited</code> until the minute has passed, failing the requests that depend on it. So in the
      Runner’s settings, set <strong>Delay</strong> to <strong>{pace.delayMs} ms</strong>: it spreads the requests so
      that any number of iterations stays under the limit. If a request still answers <code>429</code>, wait the seconds
      in its <code>Retry-After</code> header and run again.
    </>
  );
}

export function PostmanRunSteps({run}: {run: 'happyPath' | 'failurePath'}): ReactNode {
  if (run === 'happyPath') {
    const {folders, requests, stores} = postman.runs.happyPath;
    return (
      <ol>
        <li>
          Select the collection <strong>{postman.collectionName}</strong> and choose <strong>Run</strong> to open the
          Collection Runner.
        </li>
        <li>
          Select the environment <strong>{POSTMAN.sandboxEnvironmentName}</strong>.
        </li>
        <li>Check only the folders {codes(folders)}, in that order.</li>
        <li>
          Select <strong>Run</strong>. All {requests.length} requests, from <strong>{requests[0]}</strong> to{' '}
          <strong>{requests.at(-1)}</strong>, pass their tests, and the test scripts store {codes(stores)} for the
          requests that follow.
        </li>
      </ol>
    );
  }
  const failure = postman.runs.failurePath;
  return (
    <ol>
      <li>
        In <strong>{POSTMAN.sandboxEnvironmentName}</strong>, set the current value of <code>{failure.variable}</code>{' '}
        to <code>{failure.value}</code>.
      </li>
      <li>
        Run only the folder <code>{failure.folder}</code>.
      </li>
      <li>
        <strong>{failure.request}</strong> answers HTTP {failure.status} with the error code <code>{failure.code}</code>{' '}
        ({withCode(lowerFirst(failure.meaning))}). Its test <code>{failure.test}</code> fails with a message that starts{' '}
        <code>{`${failure.status} ${failure.code}`}</code>. The other requests, {names(failure.otherRequests)}, pass,
        and {codes(failure.keeps)} keep the values of the last order.
      </li>
      <li>
        Set <code>{failure.variable}</code> back to <code>{failure.resetValue}</code>.
      </li>
    </ol>
  );
}

const MACHINES = {
  order: {states: ORDER_STATES, transitions: ORDER_TRANSITIONS},
  esim: {states: ESIM_STATES, transitions: ESIM_TRANSITIONS},
  topup: {states: TOPUP_STATES, transitions: TOPUP_TRANSITIONS},
} as const;

const MACHINE_NAMES = {order: 'Order', esim: 'eSIM', topup: 'Top-up'} as const;

/** The states of an order, eSIM or top-up (src/constants/behaviour.ts, which the sandbox enforces). */
export function StateTable({machine}: {machine: keyof typeof MACHINES}): ReactNode {
  const states: readonly {status: string; meaning: string; youCan?: string}[] = MACHINES[machine].states;
  const withYouCan = states.some((state) => state.youCan);
  return (
    <ScrollableTable aria-label={`${MACHINE_NAMES[machine]} states`}>
      <thead>
        <tr>
          <th scope="col">
            <code>status</code>
          </th>
          <th scope="col">Meaning</th>
          {withYouCan && <th scope="col">You can</th>}
        </tr>
      </thead>
      <tbody>
        {states.map(({status, meaning, youCan}) => (
          <tr key={status}>
            <th scope="row">
              <code>{status}</code>
            </th>
            <td>{withCode(meaning)}</td>
            {withYouCan && <td>{withCode(youCan ?? '')}</td>}
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  );
}

/** Every change of state: from, to, what causes it and the webhook it sends. */
export function TransitionTable({machine}: {machine: keyof typeof MACHINES}): ReactNode {
  const transitions: readonly {from: readonly string[]; to: string; by: string; event?: string}[] =
    MACHINES[machine].transitions;
  return (
    <ScrollableTable aria-label={`${MACHINE_NAMES[machine]} state changes`}>
      <thead>
        <tr>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">When</th>
          <th scope="col">Webhook</th>
        </tr>
      </thead>
      <tbody>
        {transitions.map(({from, to, by, event}) => (
          <tr key={`${from.join()}-${to}`}>
            <td>{withCode(from.map((state) => `\`${state}\``).join(', '))}</td>
            <td>{to === PREVIOUS_STATUS ? 'The status it had before' : <code>{to}</code>}</td>
            <td>{withCode(by)}</td>
            <td>{event ? <code>{event}</code> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  );
}

/** What each state-dependent operation allows, and the error it answers otherwise. */
export function StateRuleTable(): ReactNode {
  return (
    <ScrollableTable>
      <thead>
        <tr>
          <th scope="col">Operation</th>
          <th scope="col">Allowed when the status is</th>
          <th scope="col">Otherwise (422)</th>
        </tr>
      </thead>
      <tbody>
        {STATE_RULES.map(({operation, allowedFrom, failure, also}) => (
          <tr key={operation}>
            <th scope="row">
              <code>{operation}</code>
            </th>
            <td>
              {withCode(allowedFrom.map((state) => `\`${state}\``).join(', '))}
              {also && <>; {withCode(also)}</>}
            </td>
            <td>
              <Link to={`#${failure}`}>
                <code>{failure}</code>
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  );
}
