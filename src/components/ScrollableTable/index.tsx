import {Children, isValidElement, type ComponentProps, type ReactNode} from 'react';
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

export default function ScrollableTable({'aria-label': name, ...props}: ComponentProps<'table'>): ReactNode {
  return (
    <div
      className={styles.scrollRegion}
      role="region"
      aria-label={name ?? nameOf(props.children)}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}>
      <table {...props} />
      {/* Marks the table complete: a page painted while its HTML still arrives keeps the table hidden until then. */}
      <span hidden />
    </div>
  );
}
