/**
 * A memoised wrap of the stock line. Every code block re-renders once after hydration (its word-wrap
 * button appears when the code overflows, which is nearly always on a phone) and the stock render
 * rebuilt every line and token then: main-thread time on code-heavy pages. prism-react-renderer
 * memoises the tokens (same `line` array while the code is the same) but makes new
 * getLineProps/getTokenProps on every render, so those are not compared; instead the wrapper reads
 * the Prism theme, and a theme change (colour mode) re-renders the line with the new getters.
 */
import React, {memo, type ReactNode} from 'react';
import Line from '@theme-original/CodeBlock/Line';
import type LineType from '@theme/CodeBlock/Line';
import type {WrapperProps} from '@docusaurus/types';
import {usePrismTheme} from '@docusaurus/theme-common';

type Props = WrapperProps<typeof LineType>;

/** parseLines() makes new class-name arrays on every render: compare them by value. */
function sameClassNames(previous: string[] | undefined, next: string[] | undefined): boolean {
  if (previous === next) return true;
  if (!previous || !next || previous.length !== next.length) return false;
  return previous.every((name, index) => name === next[index]);
}

function LineWrapper(props: Props): ReactNode {
  // Subscribes to the theme: a context change re-renders a memoised component with its new props.
  usePrismTheme();
  return <Line {...props} />;
}

export default memo(
  LineWrapper,
  (previous, next) =>
    previous.line === next.line &&
    previous.showLineNumbers === next.showLineNumbers &&
    sameClassNames(previous.classNames, next.classNames),
);
