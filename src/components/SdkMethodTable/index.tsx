// The SDK page's method table, rendered from sdk/index.d.ts (plugins/sdk-reference extracts the rows).
import type {ReactNode} from 'react';
import ScrollableTable from '@site/src/components/ScrollableTable';
import type {SdkMethodRow} from '@site/plugins/sdk-reference';

/** "Verifies a webhook delivery and returns a typed event." → "None: verifies a webhook delivery and returns a typed event" */
function withoutEndpoint(summary: string): string {
  return `None: ${summary.charAt(0).toLowerCase()}${summary.slice(1).replace(/\.$/, '')}`;
}

/** `methods`: the plugin's rows, `import methods from '@generated/sdk-reference/default/sdk-methods.json'`. */
export default function SdkMethodTable({methods}: {methods: readonly SdkMethodRow[]}): ReactNode {
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
