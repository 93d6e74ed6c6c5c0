// A script of the Postman collection, highlighted at build time (its own data file, so only its page loads it).
import type {ReactNode} from 'react';
import CodeBlock from '@theme/CodeBlock';
import scripts from '@generated/api-reference/default/postman-scripts.json';

export default function PostmanScript({
  listen,
  operation,
}: {
  listen: 'prerequest' | 'test';
  operation?: string;
}): ReactNode {
  const set = operation ? scripts.requests[operation] : scripts.collection;
  if (!set) {
    throw new Error(`PostmanScript: no request of the Postman collection sends "${operation}"`);
  }
  const script = set[listen];
  if (!script) {
    throw new Error(`PostmanScript: ${operation ?? 'the collection'} has no ${listen} script`);
  }
  return (
    <CodeBlock className="postman-script" language={script.language} highlighted={script.html}>
      {script.code}
    </CodeBlock>
  );
}
