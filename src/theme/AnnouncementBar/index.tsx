// Wrap: the bar's message is an HTML string from the constants module, so its links are plain
// <a> tags; this turns clicks on same-site links into client-side navigations (no full reload).
import type {MouseEvent, ReactNode} from 'react';
import AnnouncementBar from '@theme-original/AnnouncementBar';
import type AnnouncementBarType from '@theme/AnnouncementBar';
import type {WrapperProps} from '@docusaurus/types';
import {useHistory} from '@docusaurus/router';

type Props = WrapperProps<typeof AnnouncementBarType>;

export default function AnnouncementBarWrapper(props: Props): ReactNode {
  const history = useHistory();
  const navigateInApp = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    const anchor = (event.target as Element).closest('a');
    if (!anchor || anchor.target || anchor.origin !== window.location.origin) {
      return;
    }
    event.preventDefault();
    history.push(`${anchor.pathname}${anchor.search}${anchor.hash}`);
  };
  return (
    // The click handler only upgrades native link clicks; keyboard users activate the same links.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div onClick={navigateInApp}>
      <AnnouncementBar {...props} />
    </div>
  );
}
