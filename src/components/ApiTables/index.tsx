// Tables rendered from one source each: scopes from the served OpenAPI document, events and error codes from src/constants/api.ts.
import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {ERROR_CODES, WEBHOOK_EVENTS} from '@site/src/constants/api';
import contract from '@generated/api-artifacts/default/contract.json';
import {scopesFor} from './scopesFor';

/** Renders backticked spans in a constant's text as inline code. */
function withCode(text: string): ReactNode {
  return text.split(/(`[^`]+`)/).map((part, index) =>
    part.startsWith('`') && part.endsWith('`') ? <code key={index}>{part.slice(1, -1)}</code> : part,
  );
}

export function ScopeTable(): ReactNode {
  return (
    <table>
      <thead>
        <tr>
          <th>Scope</th>
          <th>Allows</th>
        </tr>
      </thead>
      <tbody>
        {contract.scopes.map(({scope, description}) => (
          <tr key={scope}>
            <td>
              <code>{scope}</code>
            </td>
            <td>{withCode(description)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WebhookEventTable(): ReactNode {
  return (
    <table>
      <thead>
        <tr>
          <th>Event type</th>
          <th>Sent when</th>
        </tr>
      </thead>
      <tbody>
        {WEBHOOK_EVENTS.map(({type, when}) => (
          <tr key={type}>
            <td>
              <code>{type}</code>
            </td>
            <td>{withCode(when)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The error overview; each code links to its own section (same anchors as the API's doc_url). */
export function ErrorCodeTable(): ReactNode {
  return (
    <table>
      <thead>
        <tr>
          <th>HTTP</th>
          <th>Code</th>
          <th>Meaning</th>
          <th>SDK class</th>
        </tr>
      </thead>
      <tbody>
        {ERROR_CODES.map(({code, status, summary, sdkClass}) => (
          <tr key={code}>
            <td>{status}</td>
            <td>
              <Link to={`#${code}`}>
                <code>{code}</code>
              </Link>
            </td>
            <td>{withCode(summary)}</td>
            <td>
              <code>{sdkClass}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The scopes a credential needs to call `operations` (`METHOD /v1/path/{param}` templates), read from
 * the OpenAPI document's security requirements: "`catalog:read`, `orders:write` and `esims:read`".
 * The doc tests give each page a token with exactly these scopes.
 */
export function RequiredScopes({operations}: {operations: readonly string[]}): ReactNode {
  const scopes = scopesFor(contract, operations);
  return scopes.map((scope, index) => (
    <span key={scope}>
      {index === 0 ? '' : index === scopes.length - 1 ? ' and ' : ', '}
      <code>{scope}</code>
    </span>
  ));
}
