// Tables rendered from src/constants/api.ts so scopes, events and error codes are listed in one place only.
import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {ERROR_CODES, SCOPES, WEBHOOK_EVENTS} from '@site/src/constants/api';

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
        {SCOPES.map(({scope, allows}) => (
          <tr key={scope}>
            <td>
              <code>{scope}</code>
            </td>
            <td>{allows}</td>
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
