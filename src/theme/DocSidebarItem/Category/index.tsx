// Wrap: a category with no page renders as an <a> without href (Lighthouse: "Links are not crawlable"); it gets role="none".
import type {ReactNode} from 'react';
import DocSidebarItemCategory from '@theme-original/DocSidebarItem/Category';
import type DocSidebarItemCategoryType from '@theme/DocSidebarItem/Category';
import type {WrapperProps} from '@docusaurus/types';

type Props = WrapperProps<typeof DocSidebarItemCategoryType>;

export default function DocSidebarItemCategoryWrapper(props: Props): ReactNode {
  const isPlainLabel = !props.item.collapsible && !props.item.href;
  return <DocSidebarItemCategory {...props} {...(isPlainLabel ? {role: 'none'} : {})} />;
}
