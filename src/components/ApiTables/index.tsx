// Tables rendered from one source each: scopes from the served OpenAPI document, environments, events and error codes from src/constants/api.ts.
import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {ERROR_CODES, WEBHOOK_EVENTS} from '@site/src/constants/api';
import contract from '@generated/api-artifacts/default/contract.json';
import {scopesFor} from './scopesFor';
import {ENVIRONMENT_COLUMNS, ENVIRONMENT_ROWS} from './environmentRows';
import ScrollableTable from '@site/src/components/ScrollableTable';

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

/** Sandbox and Live side by side: API base, token URL, widget host and credential prefixes (the one environments table). */
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
 * `samples` marks the sentence that tells readers what the page's samples need: the doc tests run
 * those samples with a token holding exactly these scopes.
 */
export function RequiredScopes({operations}: {operations: readonly string[]; samples?: boolean}): ReactNode {
  const scopes = scopesFor(contract, operations);
  return scopes.map((scope, index) => (
    <span key={scope}>
      {index === 0 ? '' : index === scopes.length - 1 ? ' and ' : ', '}
      <code>{scope}</code>
    </span>
  ));
}
