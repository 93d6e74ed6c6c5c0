// Wrap: (1) the bar's message is an HTML string from the constants module, so its links are plain
// <a> tags; clicks on same-site links become client-side navigations (no full reload). (2) A new
// announcement id must show the bar at once: the stock inline script marks <html> as "initially
// dismissed" from the old id's flag and its CSS would keep the new bar hidden until a reload.
import {useEffect, type MouseEvent, type ReactNode} from 'react';
import AnnouncementBar from '@theme-original/AnnouncementBar';
import type AnnouncementBarType from '@theme/AnnouncementBar';
import type {WrapperProps} from '@docusaurus/types';
import {useHistory} from '@docusaurus/router';
import {useAnnouncementBar} from '@docusaurus/theme-common/internal';

type Props = WrapperProps<typeof AnnouncementBarType>;

export default function AnnouncementBarWrapper(props: Props): ReactNode {
  const history = useHistory();
  const {isActive} = useAnnouncementBar();
  useEffect(() => {
    document.documentElement.setAttribute('data-announcement-bar-initially-dismissed', String(!isActive));
  }, [isActive]);
  const navigateInApp = (event: MouseEvent<HTMLDivElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
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
    <div className="announcement-bar" onClick={navigateInApp}>
      <AnnouncementBar {...props} />
    </div>
  );
}
