import {Children, isValidElement, type ComponentProps, type CSSProperties, type ReactNode} from 'react';
import styles from './styles.module.css';

type WithChildren = {children?: ReactNode};

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') {
    return String(node);
  }
  return Children.toArray(node)
    .map((child) =>
      isValidElement<WithChildren>(child)
        ? textOf(child.props.children)
        : typeof child === 'object'
          ? ''
          : String(child),
    )
    .join('');
}

function rowsOf(children: ReactNode): ReactNode[] {
  return Children.toArray(children).flatMap((child) => {
    if (!isValidElement<WithChildren>(child)) {
      return [];
    }
    return child.type === 'tr' ? [child.props.children] : rowsOf(child.props.children);
  });
}

/** For tables that plugins/remark did not name after their section. */
function nameOf(children: ReactNode): string {
  const parts = Children.toArray(children).filter((child) => isValidElement<WithChildren>(child));
  const caption = parts.find((child) => child.type === 'caption');
  if (caption) {
    return textOf(caption.props.children).trim();
  }
  const head = parts.find((child) => child.type === 'thead');
  const labels = Children.toArray(rowsOf(head?.props.children)[0])
    .map((cell) => textOf(cell).trim())
    .filter(Boolean);
  return labels.length > 0 ? `Table: ${labels.join(', ')}` : 'Table';
}

const CHAR_WIDTH_PX = 8;
const COLUMN_WIDTH_PX = {narrow: 380, wide: 720};

/** A rough estimate (accuracy: BENCHMARKS.md, "Bytes shipped"): a row is as tall as its most wrapped cell. */
function estimateLines(rows: readonly ReactNode[], columnWidthPx: number): number {
  return rows.reduce<number>((lines, row) => {
    const cells = Children.toArray(row);
    const cellWidthPx = columnWidthPx / Math.max(1, cells.length);
    const cellLines = cells.map((cell) => Math.ceil((textOf(cell).length * CHAR_WIDTH_PX) / cellWidthPx));
    return lines + Math.max(1, ...cellLines);
  }, 0);
}

export default function ScrollableTable({'aria-label': name, ...props}: ComponentProps<'table'>): ReactNode {
  // Its estimated height before it is first rendered (content-visibility in the CSS module).
  const rows = rowsOf(props.children);
  const style = {
    '--table-rows': rows.length,
    '--table-lines-narrow': estimateLines(rows, COLUMN_WIDTH_PX.narrow),
    '--table-lines-wide': estimateLines(rows, COLUMN_WIDTH_PX.wide),
  } as CSSProperties;
  return (
    <div
      className={styles.scrollRegion}
      role="region"
      aria-label={name ?? nameOf(props.children)}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
      style={style}>
      <table {...props} />
    </div>
  );
}
