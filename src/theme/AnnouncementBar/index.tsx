// Wrap: same-site links in the HTML message navigate client-side, a new announcement id shows at once (the stock
// inline script hides it from the old id's "dismissed" flag until a reload), and a closeable bar is marked so the CSS
// keeps its close button's column (src/css/custom.css).
import {useEffect, type MouseEvent, type ReactNode} from 'react';
import AnnouncementBar from '@theme-original/AnnouncementBar';
import type AnnouncementBarType from '@theme/AnnouncementBar';
import type {WrapperProps} from '@docusaurus/types';
import {useHistory} from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {useThemeConfig} from '@docusaurus/theme-common';
import {useAnnouncementBar} from '@docusaurus/theme-common/internal';

type Props = WrapperProps<typeof AnnouncementBarType>;

export default function AnnouncementBarWrapper(props: Props): ReactNode {
  const history = useHistory();
  const {isActive} = useAnnouncementBar();
  const isCloseable = useThemeConfig().announcementBar?.isCloseable ?? false;
  const isBrowser = useIsBrowser();
  useEffect(() => {
    // Not from the hydration render: it shows the bar whatever the reader dismissed, and writing that would show a
    // dismissed bar until the next render hides it again, moving the page twice.
    if (isBrowser) {
      document.documentElement.setAttribute('data-announcement-bar-initially-dismissed', String(!isActive));
    }
  }, [isActive, isBrowser]);
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
    <div
      className={isCloseable ? 'announcement-bar announcement-bar--closeable' : 'announcement-bar'}
      onClick={navigateInApp}>
      <AnnouncementBar {...props} />
    </div>
  );
}
