import type {ReactNode} from 'react';
import ScrollableTable from '@site/src/components/ScrollableTable';
import methods from '@generated/api-reference/default/sdk-methods.json';

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
