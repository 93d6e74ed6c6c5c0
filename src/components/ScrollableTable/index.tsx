import type {ComponentProps, ReactNode} from 'react';
import styles from './styles.module.css';

/** A Markdown table in a region that scrolls sideways and can be scrolled with the keyboard. */
export default function ScrollableTable(props: ComponentProps<'table'>): ReactNode {
  return (
    // tabIndex makes the scroll container reachable by keyboard, so arrow keys can scroll it.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className={styles.scrollRegion} role="region" aria-label="Table" tabIndex={0}>
      <table {...props} />
    </div>
  );
}
