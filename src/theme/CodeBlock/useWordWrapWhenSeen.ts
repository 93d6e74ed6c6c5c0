/**
 * theme-common 3.7.0's `useCodeWordWrap` (MIT, Facebook), changed: whether the block's lines are wider than it is read
 * only while the block is in view, when the browser lays it out anyway. The stock hook reads `scrollWidth` of every
 * block in the effects right after hydration, which forces a layout of the whole page inside that task. The
 * IntersectionObserver also covers a block shown by its tab or a collapsed section, for which the stock hook watched
 * the tab panel's `hidden` attribute. Why: BENCHMARKS.md, "A block's overflow read once in view".
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
    window.addEventListener('resize', measure, {passive: true});
    // A browser without IntersectionObserver measures at once, as the stock hook does.
    const observer =
      typeof IntersectionObserver === 'undefined'
        ? undefined
        : new IntersectionObserver((entries) => {
            inView.current = entries.at(-1)!.isIntersecting;
            measure();
          });
    if (observer) {
      observer.observe(pre);
    } else {
      inView.current = true;
      measure();
    }
    return () => {
      observer?.disconnect();
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
