/**
 * Ejected: the stock CodeBlock highlights with Prism in the browser and React re-creates every token on hydration.
 * Fences arrive highlighted from the MDX compile (plugins/remark/code-highlight: `highlighted`), components'
 * blocks from build-time data (lib/highlight), rendered as static HTML; a block in a language without it throws
 * (`highlighted`: src/types/code-block.d.ts). Why: BENCHMARKS.md, "Code highlighted at build time". Same markup
 * and buttons as 3.7.0's String content, whose styles.module.css this folder's copies.
 */
import {isValidElement, Children, useMemo, type CSSProperties, type ReactNode} from 'react';
import clsx from 'clsx';
import {useThemeConfig} from '@docusaurus/theme-common';
import {parseCodeBlockTitle, parseLanguage, parseLines} from '@docusaurus/theme-common/internal';
import Container from '@theme/CodeBlock/Container';
import CopyButton from '@theme/CodeBlock/CopyButton';
import WordWrapButton from '@theme/CodeBlock/WordWrapButton';
import ElementContent from '@theme/CodeBlock/Content/Element';
import type {Props} from '@theme/CodeBlock';
import styles from './styles.module.css';
import {useWordWrapWhenSeen} from './useWordWrapWhenSeen';

function stringChildren(children: ReactNode): string | undefined {
  const parts = Children.toArray(children);
  return parts.some((part) => isValidElement(part)) ? undefined : parts.join('');
}

export default function CodeBlock({
  children,
  className: blockClassName = '',
  metastring,
  title: titleProp,
  language: languageProp,
  highlighted,
}: Props): ReactNode {
  const {
    prism: {magicComments},
  } = useThemeConfig();
  const {codeBlockRef, isEnabled, isCodeScrollable, toggle} = useWordWrapWhenSeen();
  // One object for the block's life: React 19 rewrites innerHTML whenever this object changes, and the block
  // re-renders when it comes into view (the word-wrap button's state).
  const html = useMemo(() => (highlighted === undefined ? undefined : {__html: highlighted}), [highlighted]);
  const source = stringChildren(children);
  if (source === undefined) {
    return <ElementContent className={blockClassName}>{children}</ElementContent>;
  }
  const language = (languageProp ?? parseLanguage(blockClassName))?.toLowerCase();
  const title = parseCodeBlockTitle(metastring) || titleProp;
  const {code} = parseLines(source, {metastring, language, magicComments});
  // Off screen, code whose size is known before it is laid out skips rendering (styles.module.css): printable ASCII
  // without tabs, each character one `ch` wide; other code renders as usual.
  const lines = code.replace(/\n$/, '').split('\n');
  const size = /^[\x20-\x7e\n]+$/.test(code)
    ? ({'--code-lines': lines.length, '--code-columns': Math.max(...lines.map((line) => line.length))} as CSSProperties)
    : undefined;
  if (html === undefined && language && language !== 'text') {
    // Without it the block would be plain text: the build fails here (static rendering) rather than ship it.
    throw new Error(
      `CodeBlock: a ${language} block (${title ? `"${title}"` : `starting "${code.split('\n')[0]!.slice(0, 60)}"`}) ` +
        'has no `highlighted` HTML. Fences get it from plugins/remark/code-highlight; a component must pass ' +
        'highlighted={html} with the code from build-time data (lib/highlight, as plugins/api-reference emits it).',
    );
  }
  return (
    <Container
      as="div"
      className={clsx(
        blockClassName,
        language && !blockClassName.includes(`language-${language}`) && `language-${language}`,
      )}>
      {title && <div className={styles.codeBlockTitle}>{title}</div>}
      <div className={styles.codeBlockContent}>
        <pre
          /* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */
          tabIndex={0}
          ref={codeBlockRef}
          style={size}
          className={clsx('prism-code', `language-${language ?? 'text'}`, styles.codeBlock, 'thin-scrollbar')}>
          {html === undefined ? (
            // Plain text only (no language, or `text`): nothing to highlight.
            <code className={clsx(styles.codeBlockLines, size && styles.skipsOffScreen)}>{code}</code>
          ) : (
            <code
              className={clsx(styles.codeBlockLines, size && styles.skipsOffScreen)}
              dangerouslySetInnerHTML={html}
            />
          )}
        </pre>
        <div className={styles.buttonGroup}>
          {(isEnabled || isCodeScrollable) && (
            <WordWrapButton className={styles.codeButton} onClick={() => toggle()} isEnabled={isEnabled} />
          )}
          <CopyButton className={styles.codeButton} code={code} />
        </div>
      </div>
    </Container>
  );
}
