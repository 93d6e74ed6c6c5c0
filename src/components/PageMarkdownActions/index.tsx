/**
 * "Copy page as Markdown" and "View as Markdown" for the current doc. Both use the page's
 * Markdown twin that plugins/llms-txt writes into the build (`/path.md`, `/index.md` for `/`).
 * Rendered on the server with its final size (the button's labels share one grid cell), so
 * nothing moves on hydration or when the label changes; the browser is touched only on click.
 */
import {useEffect, useRef, useState, type ReactNode} from 'react';
import clsx from 'clsx';
import {useDoc} from '@docusaurus/plugin-content-docs/client';

import {twinPath} from '@site/lib/twin-path';
import {MARKDOWN_STATUS_ID} from '@site/src/constants/site';
import styles from './styles.module.css';

type CopyState = 'idle' | 'copying' | 'copied' | 'failed';

/** On a phone the idle label reads "Copy page", so the two actions share one row; its name stays whole. */
const LABELS: Record<CopyState, ReactNode> = {
  idle: (
    <>
      Copy page<span className={styles.wideScreenOnly}> as Markdown</span>
    </>
  ),
  copying: 'Copying…',
  copied: 'Copied',
  failed: 'Copy failed',
};

/** What a screen reader hears, and what the failure note says. */
const ANNOUNCEMENTS: Record<CopyState, string> = {
  idle: '',
  copying: '',
  copied: 'Copied the page as Markdown to the clipboard.',
  failed: 'Could not copy the page. Open “View as Markdown” and copy it from there.',
};

/** How long the "Copied" and failure states stay before the button reads its label again. */
const RESET_MS: Partial<Record<CopyState, number>> = {copied: 2500, failed: 8000};

async function loadMarkdown(url: string): Promise<string> {
  const response = await fetch(url, {headers: {Accept: 'text/markdown, text/plain;q=0.9'}});
  if (!response.ok) {
    throw new Error(`HTTP ${response.status}`);
  }
  const text = await response.text();
  // A server without the twins (e.g. `docusaurus start`) may answer with the HTML app shell.
  if (/^\s*</.test(text)) {
    throw new Error('not Markdown');
  }
  return text;
}

/**
 * Puts the twin on the clipboard. Safari allows a clipboard write only within the click, so the
 * fetch goes into a ClipboardItem as a promise where that is supported; else fetch, then write.
 */
async function copyMarkdown(url: string): Promise<void> {
  const markdown = loadMarkdown(url);
  markdown.catch(() => undefined);
  if (typeof ClipboardItem !== 'undefined' && typeof navigator.clipboard?.write === 'function') {
    const blob = markdown.then((text) => new Blob([text], {type: 'text/plain'}));
    await navigator.clipboard.write([new ClipboardItem({'text/plain': blob})]);
    await markdown;
    return;
  }
  await navigator.clipboard.writeText(await markdown);
}

function CopyIcon(): ReactNode {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M16 1H4a2 2 0 0 0-2 2v14h2V3h12V1zm3 4H8a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm0 16H8V7h11v14z"
      />
    </svg>
  );
}

function MarkdownIcon(): ReactNode {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M22 5H2a1 1 0 0 0-1 1v12a1 1 0 0 0 1 1h20a1 1 0 0 0 1-1V6a1 1 0 0 0-1-1zm-1 12H3V7h18v10zM5 15V9h2l2 2.5L11 9h2v6h-2v-3.4l-2 2.5-2-2.5V15H5zm12.5 0L15 12h1.75V9h1.5v3H20l-2.5 3z"
      />
    </svg>
  );
}

export default function PageMarkdownActions(): ReactNode {
  const {metadata} = useDoc();
  const markdownUrl = twinPath(metadata.permalink);
  const [state, setState] = useState<CopyState>('idle');
  const resetTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(resetTimer.current), []);

  const settle = (next: CopyState) => {
    setState(next);
    clearTimeout(resetTimer.current);
    const delay = RESET_MS[next];
    if (delay !== undefined) {
      resetTimer.current = setTimeout(() => setState('idle'), delay);
    }
  };

  const onCopy = () => {
    if (state === 'copying') {
      return;
    }
    setState('copying');
    copyMarkdown(markdownUrl).then(
      () => settle('copied'),
      (error: unknown) => {
        console.warn('Copy page as Markdown failed:', error);
        settle('failed');
      },
    );
  };

  return (
    <div className={clsx('page-markdown-actions', styles.actions)}>
      <button
        type="button"
        className={clsx(styles.action, styles.button, state === 'copied' && styles.copied)}
        onClick={onCopy}
        aria-describedby={state === 'failed' ? MARKDOWN_STATUS_ID : undefined}
        data-state={state}>
        <CopyIcon />
        {/* Every label in one grid cell: the button is as wide as the longest, whichever shows. */}
        <span className={styles.labels}>
          {(Object.keys(LABELS) as CopyState[]).map((key) => (
            <span key={key} className={clsx(key !== state && styles.hiddenLabel)} aria-hidden={key !== state}>
              {LABELS[key]}
            </span>
          ))}
        </span>
      </button>
      {/* eslint-disable-next-line @docusaurus/no-html-links -- a static .md file, not a route */}
      <a className={clsx(styles.action, styles.link)} href={markdownUrl} type="text/markdown">
        <MarkdownIcon />
        View as Markdown
      </a>
      <span
        id={MARKDOWN_STATUS_ID}
        role="status"
        className={clsx(styles.status, state === 'failed' && styles.statusVisible)}>
        {ANNOUNCEMENTS[state]}
      </span>
    </div>
  );
}
