import type {ReactNode} from 'react';
import ScrollableTable from '@site/src/components/ScrollableTable';
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
