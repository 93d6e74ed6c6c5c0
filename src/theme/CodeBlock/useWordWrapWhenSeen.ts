/**
 * theme-common 3.7.0's `useCodeWordWrap`, with one change: whether the block's lines are wider than it is read only
 * while the block is in view, when the browser has laid it out anyway. The stock hook reads `scrollWidth` of every
 * block as the page hydrates, which lays out all the content that skips rendering off screen (styles.module.css,
 * src/css/custom.css) in one long task. An IntersectionObserver also covers a block shown by its tab.
 * Why: BENCHMARKS.md, "Prose off screen skips rendering".
 */
import {useCallback, useEffect, useRef, useState} from 'react';

export function useWordWrapWhenSeen() {
  const [isEnabled, setIsEnabled] = useState(false);
  const [isCodeScrollable, setIsCodeScrollable] = useState(false);
  const codeBlockRef = useRef<HTMLPreElement>(null);
  const inView = useRef(false);

  const measure = useCallback(() => {
    const pre = codeBlockRef.current;
    if (!pre || !inView.current) return;
    setIsCodeScrollable(pre.scrollWidth > pre.clientWidth || pre.querySelector('code')!.hasAttribute('style'));
  }, []);

  useEffect(() => {
    const pre = codeBlockRef.current;
    if (!pre) return undefined;
    const observer = new IntersectionObserver((entries) => {
      inView.current = entries.at(-1)!.isIntersecting;
      measure();
    });
    observer.observe(pre);
    window.addEventListener('resize', measure, {passive: true});
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [measure]);

  // Wrapped or unwrapped, its width changed.
  useEffect(measure, [isEnabled, measure]);

  const toggle = useCallback(() => {
    const code = codeBlockRef.current!.querySelector('code')!;
    if (isEnabled) {
      code.removeAttribute('style');
    } else {
      code.style.whiteSpace = 'pre-wrap';
      // Very long tokens wrap too: no sideways scrolling once wrapped.
      code.style.overflowWrap = 'anywhere';
    }
    setIsEnabled((value) => !value);
  }, [isEnabled]);

  return {codeBlockRef, isEnabled, isCodeScrollable, toggle};
}
