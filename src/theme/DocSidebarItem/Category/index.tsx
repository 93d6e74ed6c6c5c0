// Wrap (Lighthouse SEO "Links are not crawlable"): our sidebar categories are not collapsible and
// have no page, so the theme renders their label as an <a> without href or role, which Lighthouse reports.
// Such a label is no link: it gets role="none" (it stays plain text to assistive technology). Others pass through.
import type {ReactNode} from 'react';
import DocSidebarItemCategory from '@theme-original/DocSidebarItem/Category';
import type DocSidebarItemCategoryType from '@theme/DocSidebarItem/Category';
import type {WrapperProps} from '@docusaurus/types';

type Props = WrapperProps<typeof DocSidebarItemCategoryType>;

export default function DocSidebarItemCategoryWrapper(props: Props): ReactNode {
  const isPlainLabel = !props.item.collapsible && !props.item.href;
  return <DocSidebarItemCategory {...props} {...(isPlainLabel ? {role: 'none'} : {})} />;
}
