// Wrap: the stock MDX component map, with Markdown tables rendered inside a keyboard-focusable
// scroll region (wide reference tables scroll sideways on phones; axe: scrollable-region-focusable).
import MDXComponents from '@theme-original/MDXComponents';
import ScrollableTable from '@site/src/components/ScrollableTable';

export default {
  ...MDXComponents,
  table: ScrollableTable,
};
