// Ejected (the stock panel takes no id or aria-labelledby): renders the links src/theme/Tabs passes, so each panel names its tab.
import React, {type ReactNode} from 'react';
import clsx from 'clsx';
import type {Props as StockProps} from '@theme/TabItem';
import styles from './styles.module.css';

type Props = StockProps & {readonly id?: string; readonly 'aria-labelledby'?: string};

export default function TabItem({children, hidden, className, id, 'aria-labelledby': labelledBy}: Props): ReactNode {
  return (
    <div role="tabpanel" id={id} aria-labelledby={labelledBy} className={clsx(styles.tabItem, className)} hidden={hidden}>
      {children}
    </div>
  );
}
