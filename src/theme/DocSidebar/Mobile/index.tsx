/**
 * Ejected (a wrap cannot change the props handed to NavbarSecondaryMenuFiller): the filler memoises
 * its props with theme-common's useShallowMemoObject, which sorts the keys with localeCompare. That
 * is the page's first localeCompare, and it loads ICU collation data: ~12 ms on a laptop, ~50 ms at
 * Lighthouse's 4× mobile throttle, inside the synchronous render that swaps in the mobile sidebar
 * right after hydration. The props are memoised here and handed over under one key, so the sort has
 * nothing to compare. What is rendered is unchanged.
 */
import React, {memo, useMemo, type ReactNode} from 'react';
import clsx from 'clsx';
import {NavbarSecondaryMenuFiller, ThemeClassNames} from '@docusaurus/theme-common';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';
import DocSidebarItems from '@theme/DocSidebarItems';
import type {Props} from '@theme/DocSidebar/Mobile';

function DocSidebarMobileSecondaryMenu({sidebarProps: {sidebar, path}}: {sidebarProps: Props}): ReactNode {
  const mobileSidebar = useNavbarMobileSidebar();
  return (
    <ul className={clsx(ThemeClassNames.docs.docSidebarMenu, 'menu__list')}>
      <DocSidebarItems
        items={sidebar}
        activePath={path}
        onItemClick={(item) => {
          // The menu closes when the item navigates: a link, or a category with its own page.
          if (item.type === 'link' || (item.type === 'category' && item.href)) {
            mobileSidebar.toggle();
          }
        }}
        level={1}
      />
    </ul>
  );
}

function DocSidebarMobile({sidebar, path, onCollapse, isHidden}: Props): ReactNode {
  const sidebarProps = useMemo(() => ({sidebar, path, onCollapse, isHidden}), [sidebar, path, onCollapse, isHidden]);
  return <NavbarSecondaryMenuFiller component={DocSidebarMobileSecondaryMenu} props={{sidebarProps}} />;
}

export default memo(DocSidebarMobile);
