/**
 * Ejected: a wrap cannot reach the stock tab list, which has no ids, so no tab names its panel (Nu checker errors);
 * here tabs and panels link by id, and tab sets no longer remount after hydration.
 * Why: BENCHMARKS.md, "Ejects, A/B". Otherwise the 3.7.0 file (MIT, Copyright (c) Facebook, Inc. and its affiliates).
 */
import React, {useId, type ReactElement, type ReactNode} from 'react';
import clsx from 'clsx';
import {
  useScrollPositionBlocker,
  useTabs,
  sanitizeTabsChildren,
  type TabItemProps,
} from '@docusaurus/theme-common/internal';
import type {Props} from '@theme/Tabs';
import styles from './styles.module.css';

type TabsState = Props & ReturnType<typeof useTabs> & {baseId: string};

/** The stock TabItem takes no id, so panels are rendered here. */
function TabPanel({
  children,
  className,
  hidden,
  id,
  labelledBy,
}: TabItemProps & {id: string; labelledBy: string}): ReactNode {
  return (
    <div
      role="tabpanel"
      id={id}
      aria-labelledby={labelledBy}
      className={clsx(styles.tabPanel, className)}
      hidden={hidden}>
      {children}
    </div>
  );
}

const tabIdOf = (baseId: string, index: number) => `${baseId}-tab-${index}`;
const panelIdOf = (baseId: string, index: number) => `${baseId}-panel-${index}`;

function TabList({className, block, lazy, selectedValue, selectValue, tabValues, baseId}: TabsState) {
  const tabRefs: (HTMLLIElement | null)[] = [];
  const {blockElementScrollPositionUntilNextRender} = useScrollPositionBlocker();

  const handleTabChange = (
    event: React.FocusEvent<HTMLLIElement> | React.MouseEvent<HTMLLIElement> | React.KeyboardEvent<HTMLLIElement>,
  ) => {
    const newTab = event.currentTarget;
    const newTabIndex = tabRefs.indexOf(newTab);
    const newTabValue = tabValues[newTabIndex]!.value;

    if (newTabValue !== selectedValue) {
      blockElementScrollPositionUntilNextRender(newTab);
      selectValue(newTabValue);
    }
  };

  const handleKeydown = (event: React.KeyboardEvent<HTMLLIElement>) => {
    let focusElement: HTMLLIElement | null = null;

    switch (event.key) {
      case 'Enter': {
        handleTabChange(event);
        break;
      }
      case 'ArrowRight': {
        const nextTab = tabRefs.indexOf(event.currentTarget) + 1;
        focusElement = tabRefs[nextTab] ?? tabRefs[0]!;
        break;
      }
      case 'ArrowLeft': {
        const prevTab = tabRefs.indexOf(event.currentTarget) - 1;
        focusElement = tabRefs[prevTab] ?? tabRefs[tabRefs.length - 1]!;
        break;
      }
      default:
        break;
    }

    focusElement?.focus();
  };

  return (
    <ul
      role="tablist"
      aria-orientation="horizontal"
      className={clsx(
        'tabs',
        {
          'tabs--block': block,
        },
        className,
      )}>
      {tabValues.map(({value, label, attributes}, index) => (
        <li
          // TODO extract TabListItem
          role="tab"
          tabIndex={selectedValue === value ? 0 : -1}
          aria-selected={selectedValue === value}
          key={value}
          ref={(tabControl) => {
            tabRefs.push(tabControl);
          }}
          onKeyDown={handleKeydown}
          onClick={handleTabChange}
          {...attributes}
          id={tabIdOf(baseId, index)}
          // A lazy set renders only the selected panel: the others have nothing to point at.
          aria-controls={lazy && selectedValue !== value ? undefined : panelIdOf(baseId, index)}
          className={clsx('tabs__item', styles.tabItem, attributes?.className as string, {
            'tabs__item--active': selectedValue === value,
          })}>
          {label ?? value}
        </li>
      ))}
    </ul>
  );
}

function TabContent({lazy, children, selectedValue, tabValues, baseId}: TabsState) {
  const childTabs = (Array.isArray(children) ? children : [children]).filter(Boolean) as ReactElement<TabItemProps>[];
  // Panels follow the tab order of `values` when given, so link them by value, not position.
  const linksOf = (tabItem: ReactElement<TabItemProps>) => {
    const index = tabValues.findIndex((tab) => tab.value === tabItem.props.value);
    return {id: panelIdOf(baseId, index), labelledBy: tabIdOf(baseId, index)};
  };
  if (lazy) {
    const selectedTabItem = childTabs.find((tabItem) => tabItem.props.value === selectedValue);
    if (!selectedTabItem) {
      // fail-safe or fail-fast? not sure what's best here
      return null;
    }
    return (
      <TabPanel
        {...selectedTabItem.props}
        {...linksOf(selectedTabItem)}
        className={clsx('margin-top--md', selectedTabItem.props.className)}
      />
    );
  }
  return (
    <div className="margin-top--md">
      {childTabs.map((tabItem, i) => (
        <TabPanel key={i} {...tabItem.props} {...linksOf(tabItem)} hidden={tabItem.props.value !== selectedValue} />
      ))}
    </div>
  );
}

function TabsComponent(props: Props): ReactNode {
  const tabs = useTabs(props);
  // useId is the same on the server and in the browser, so the ids survive hydration.
  const baseId = useId();
  return (
    <div className={clsx('tabs-container', styles.tabList)}>
      <TabList {...tabs} {...props} baseId={baseId} />
      <TabContent {...tabs} {...props} baseId={baseId} />
    </div>
  );
}

export default function Tabs(props: Props): ReactNode {
  // No key = isBrowser remount (a React 17 workaround): 3.7's useTabs applies the stored choice in a
  // layout effect, so hydration matches without it.
  return <TabsComponent {...props}>{sanitizeTabsChildren(props.children)}</TabsComponent>;
}
