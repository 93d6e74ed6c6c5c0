// Wrap: wide tables scroll sideways on phones, so they need a keyboard-focusable region (axe: scrollable-region-focusable).
import MDXComponents from '@theme-original/MDXComponents';
import ScrollableTable from '@site/src/components/ScrollableTable';

export default {
  ...MDXComponents,
  table: ScrollableTable,
};
