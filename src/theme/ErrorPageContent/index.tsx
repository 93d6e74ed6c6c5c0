// Wrap: keeps the stock crash page ('This page crashed.', the error and its causes, 'Try again')
// and adds what the spec asks of every crash: the page title 'Page Error' (the stock layout-level
// boundary keeps the crashed page's title), plus two ways out: the docs home and the help center.
import type {ReactNode} from 'react';
import ErrorPageContent from '@theme-original/ErrorPageContent';
import type ErrorPageContentType from '@theme/ErrorPageContent';
import type {WrapperProps} from '@docusaurus/types';
import Head from '@docusaurus/Head';
import {EXTERNAL_LINKS} from '@site/src/constants/site';
import styles from './styles.module.css';

type Props = WrapperProps<typeof ErrorPageContentType>;

export default function ErrorPageContentWrapper(props: Props): ReactNode {
  return (
    <>
      <Head>
        <title>Page Error</title>
      </Head>
      <ErrorPageContent {...props} />
      <nav aria-label="Ways out" className={styles.waysOut}>
        {/* Plain links: the app may be in a broken state, so leave it with a full page load. */}
        {/* eslint-disable-next-line @docusaurus/no-html-links -- a full page load, not client navigation */}
        <a href="/">Go to the documentation home</a>
        {/* eslint-disable-next-line @docusaurus/no-html-links -- another host */}
        <a href={EXTERNAL_LINKS.support.href} rel="noopener noreferrer">
          Contact support
        </a>
      </nav>
    </>
  );
}
