/**
 * The word-wrap state of one code block: whether its code overflows (then the toggle is shown) and
 * whether wrapping is on. Same behaviour as theme-common's useCodeWordWrap, at a fraction of its
 * main-thread cost on load: one ResizeObserver for every block instead of a resize listener, a
 * MutationObserver on the enclosing tab panel and a locale-aware sort per block and render. A block's
 * size changes whenever its overflow can: first layout, window resize, a hidden tab panel shown
 * (0 → real width), wrapping switched on or off. Observer callbacks run after layout, so reading
 * scrollWidth there forces no extra layout, and all blocks update in one React batch.
 */
import {useCallback, useEffect, useRef, useState, type RefObject} from 'react';

const onResize = new WeakMap<Element, () => void>();
let observer: ResizeObserver | undefined;

function sharedObserver(): ResizeObserver {
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) onResize.get(entry.target)?.();
  });
  return observer;
}

export type WordWrap = {
  codeBlockRef: RefObject<HTMLPreElement | null>;
  isEnabled: boolean;
  isCodeScrollable: boolean;
  toggle: () => void;
};

export function useWordWrap(): WordWrap {
  const [isEnabled, setIsEnabled] = useState(false);
  const [isCodeScrollable, setIsCodeScrollable] = useState(false);
  const codeBlockRef = useRef<HTMLPreElement | null>(null);

  const toggle = useCallback(() => {
    const code = codeBlockRef.current?.querySelector('code');
    if (!code) return;
    if (isEnabled) {
      code.removeAttribute('style');
    } else {
      code.style.whiteSpace = 'pre-wrap';
      // Even very long words and tokens wrap: no scrollbar at all while wrapping is on.
      code.style.overflowWrap = 'anywhere';
    }
    setIsEnabled((value) => !value);
  }, [isEnabled]);

  useEffect(() => {
    const pre = codeBlockRef.current;
    if (!pre || typeof ResizeObserver === 'undefined') return undefined;
    onResize.set(pre, () => {
      const wrapped = pre.querySelector('code')?.hasAttribute('style') ?? false;
      setIsCodeScrollable(pre.scrollWidth > pre.clientWidth || wrapped);
    });
    const resizes = sharedObserver();
    resizes.observe(pre);
    return () => {
      resizes.unobserve(pre);
      onResize.delete(pre);
    };
  }, []);

  return {codeBlockRef, isEnabled, isCodeScrollable, toggle};
}
