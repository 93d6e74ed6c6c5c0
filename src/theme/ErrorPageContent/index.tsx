// Wrap: the stock crash page plus what the spec asks: the title 'Page Error' (stock keeps the crashed page's) and two ways out.
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
