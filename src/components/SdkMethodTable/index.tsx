import {Fragment, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import ScrollableTable from '@site/src/components/ScrollableTable';
import {withCode} from '@site/src/components/ApiTables/withCode';
import {
  AFTER_FIX_NEW_KEY,
  ERROR_CODES,
  IMPLICIT_SAME_KEY,
  RETRY_POLICIES,
  type RetryPolicy,
} from '@site/src/constants/behaviour';
import methods from '@generated/api-reference/default/sdk-methods.json';
import coverage from '@generated/api-reference/default/sdk-coverage.json';

/** "Verifies a webhook delivery and returns a typed event." → "None: verifies a webhook delivery and returns a typed event" */
function withoutEndpoint(summary: string): string {
  return `None: ${summary.charAt(0).toLowerCase()}${summary.slice(1).replace(/\.$/, '')}`;
}

export default function SdkMethodTable(): ReactNode {
  return (
    <ScrollableTable>
      <thead>
        <tr>
          <th>Method</th>
          <th>Endpoint</th>
        </tr>
      </thead>
      <tbody>
        {methods.map(({call, endpoint, summary}) => (
          <tr key={call}>
            <td>
              <code>{call}</code>
            </td>
            <td>{endpoint === null ? withoutEndpoint(summary) : <code>{endpoint}</code>}</td>
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  );
}

/** What the SDK covers of the contract, and the operations to call over HTTP. */
export function SdkCoverage(): ReactNode {
  const {covered, total, httpOnly} = coverage;
  return (
    <>
      <p>
        The SDK covers {covered} of the API&apos;s {total} operations: the token request (the client makes it itself)
        and the methods above. Call the other {httpOnly.length} over HTTP, with a token from the same credential:
      </p>
      <ScrollableTable>
        <thead>
          <tr>
            <th>Operation</th>
            <th>What it does</th>
          </tr>
        </thead>
        <tbody>
          {httpOnly.map(({operation, summary}) => (
            <tr key={operation}>
              <td>
                <code>{operation}</code>
              </td>
              <td>{summary}</td>
            </tr>
          ))}
        </tbody>
      </ScrollableTable>
    </>
  );
}

/** Each error code's section on Main concepts (the anchors of the API's `doc_url`). */
const ERRORS_PAGE = '/getting-started/main-concepts';

function codeLinks(codes: readonly string[]): ReactNode {
  return codes.map((code, index) => (
    <Fragment key={code}>
      {index > 0 && ', '}
      <Link to={`${ERRORS_PAGE}#${code}`}>
        <code>{code}</code>
      </Link>
    </Fragment>
  ));
}

/** What the SDK does with each retry policy an error answer names in `retry`. */
const SDK_ACTIONS: Record<RetryPolicy, string> = {
  same_key:
    'Retries it by itself up to `maxRetries` times with the same `Idempotency-Key`, after about 0.5 s and then 1 s with random jitter, or after `Retry-After` seconds when the API sends it; then throws.',
  new_token: 'Fetches a new token and sends the call once more; then throws.',
  after_fix: `Throws at once. Fix the cause or wait for it to pass (a processing order completing), as the code’s fix says, then call again with a new \`idempotencyKey\`: ${AFTER_FIX_NEW_KEY}. After \`insufficient_scope\` it also drops its cached token, so the call after you add the scope to the credential gets a new token that has it.`,
  never:
    'Throws at once: the call itself does not fit what it names, so calling again never helps. A changed call is a new one, with a new key.',
};

/** What the SDK does after an error, by the `retry` policy of the answer, with the codes of each (from the behaviour model). */
export function SdkRetryTable(): ReactNode {
  const policies = Object.keys(RETRY_POLICIES) as RetryPolicy[];
  return (
    <ScrollableTable aria-label="What the SDK does after an error">
      <thead>
        <tr>
          <th scope="col">
            <code>retry</code>
          </th>
          <th scope="col">What the SDK does</th>
          <th scope="col">Codes</th>
        </tr>
      </thead>
      <tbody>
        {policies.map((policy) => (
          <tr key={policy}>
            <th scope="row">
              <code>{policy}</code>
            </th>
            <td>{withCode(SDK_ACTIONS[policy])}</td>
            <td>
              {codeLinks(ERROR_CODES.filter((rule) => rule.retry === policy).map((rule) => rule.code))}
              {policy === 'same_key' && withCode(`; also ${IMPLICIT_SAME_KEY}`)}
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  );
}

/** The SDK's error classes beyond the API's codes: no HTTP answer, or the token endpoint's own errors. */
const OTHER_ERRORS: Record<string, {status?: string; codes: ReactNode}> = {
  AuthenticationError: {
    codes: (
      <>
        <Link to="/getting-started/authentication#authentication-errors">
          <code>invalid_client</code>
        </Link>{' '}
        from the token request: a wrong client ID or secret, or a revoked credential (thrown at once, <code>retry</code>{' '}
        is <code>null</code>)
      </>
    ),
  },
  ConnectionError: {status: 'none', codes: 'Timeout or network failure, after the retries'},
  SignatureVerificationError: {status: 'none', codes: 'A webhook failed verification'},
};

/** The SDK's error classes with the HTTP statuses and error codes of each, from the behaviour model. */
export function SdkErrorTable(): ReactNode {
  const classes = [...new Set([...ERROR_CODES.map((rule) => rule.sdkClass), ...Object.keys(OTHER_ERRORS)])];
  return (
    <ScrollableTable aria-label="SDK error classes">
      <thead>
        <tr>
          <th scope="col">Error class</th>
          <th scope="col">HTTP status</th>
          <th scope="col">Codes</th>
        </tr>
      </thead>
      <tbody>
        {classes.map((sdkClass) => {
          const rules = ERROR_CODES.filter((rule) => rule.sdkClass === sdkClass);
          const other = OTHER_ERRORS[sdkClass];
          const statuses = [...new Set(rules.map((rule) => rule.status))].sort((a, b) => a - b);
          return (
            <tr key={sdkClass}>
              <th scope="row">
                <code>{sdkClass}</code>
                {sdkClass === 'RateLimitError' && (
                  <>
                    {' '}
                    (has <code>retryAfter</code>)
                  </>
                )}
              </th>
              <td>{statuses.length > 0 ? statuses.join(', ') : other?.status}</td>
              <td>
                {codeLinks(rules.map((rule) => rule.code))}
                {rules.length > 0 && other && '; '}
                {other?.codes}
              </td>
            </tr>
          );
        })}
      </tbody>
    </ScrollableTable>
  );
}
