// Wrap: adds what the spec asks and the plugin lacks (Loading... state, early index load, an AA-contrast
// Cmd/Ctrl+K hint, a bound on what lunr searches) and reports settled queries to the analytics.
import {useCallback, useEffect, useRef, useState, type ReactNode} from 'react';
import clsx from 'clsx';
import SearchBar from '@theme-original/SearchBar';
import type SearchBarType from '@theme/SearchBar';
import type {WrapperProps} from '@docusaurus/types';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {SEARCH} from '@site/src/constants/site';
import {track} from '@site/lib/analytics-track';
import {boundQuery, cutNotice, isApplePlatform, isSearchShortcut, shortcutHint, type QueryCut} from './searchBox';
import {createSearchSignals} from './searchSignals';
import styles from './styles.module.css';

type Props = WrapperProps<typeof SearchBarType>;

type Status = 'loading' | 'ready';

export default function SearchBarWrapper(props: Props): ReactNode {
  const containerRef = useRef<HTMLDivElement>(null);
  const focusWhenReady = useRef(false);
  const [status, setStatus] = useState<Status>('loading');
  const [cut, setCut] = useState<QueryCut>(null);
  const isBrowser = useIsBrowser();
  const isMac = isBrowser && isApplePlatform();

  const getInput = useCallback(
    (): HTMLInputElement | null => containerRef.current?.querySelector('input.navbar__search-input') ?? null,
    [],
  );

  // The plugin builds its autocomplete (role="combobox") only once the index is in.
  useEffect(() => {
    const container = containerRef.current;
    const input = getInput();
    if (!container || !input) {
      return undefined;
    }
    const isReady = () => input.getAttribute('role') === 'combobox';
    const placeholder = input.placeholder || SEARCH.placeholder;
    const becomeReady = () => {
      // ARIA 1.2 comboboxes name their popup with aria-controls; autocomplete.js sets only aria-owns.
      const listbox = input.getAttribute('aria-owns');
      if (listbox) {
        input.setAttribute('aria-controls', listbox);
      }
      input.disabled = false;
      input.placeholder = placeholder;
      setStatus('ready');
      if (focusWhenReady.current) {
        focusWhenReady.current = false;
        input.focus();
      }
    };
    if (isReady()) {
      becomeReady();
      return undefined;
    }
    // Focused before hydration: focus again once ready (disabling blurs it).
    focusWhenReady.current = document.activeElement === input;
    input.disabled = true;
    input.placeholder = SEARCH.loadingText;

    const observer = new MutationObserver(() => {
      if (isReady()) {
        observer.disconnect();
        becomeReady();
      }
    });
    observer.observe(container, {subtree: true, attributes: true, attributeFilter: ['role']});

    // The plugin loads its index on hover or focus; a synthetic hover on idle starts it early.
    const preload = () => input.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
    const idle = window.requestIdleCallback
      ? window.requestIdleCallback(preload, {timeout: SEARCH.preloadTimeoutMs})
      : window.setTimeout(preload, SEARCH.preloadTimeoutMs);
    return () => {
      observer.disconnect();
      if (window.cancelIdleCallback) {
        window.cancelIdleCallback(idle);
      } else {
        window.clearTimeout(idle);
      }
    };
  }, [getInput]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event, isApplePlatform())) {
        return;
      }
      event.preventDefault();
      const input = getInput();
      if (input && !input.disabled) {
        input.focus();
        input.select();
      } else {
        focusWhenReady.current = true;
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [getInput]);

  // Announce the shortcut to assistive technology (the visible hint is decorative).
  useEffect(() => {
    getInput()?.setAttribute('aria-keyshortcuts', isMac ? 'Meta+K' : 'Control+K');
  }, [getInput, isMac]);

  // Bounded text goes in through the browser's own editing, so React and the autocomplete see an ordinary input event.
  useEffect(() => {
    const container = containerRef.current;
    const input = getInput();
    if (!container || !input) {
      return undefined;
    }
    input.maxLength = SEARCH.maxQueryLength;
    const onBeforeInput = (event: InputEvent) => {
      if (!event.inputType.startsWith('insert') || !event.cancelable) {
        return;
      }
      const data = event.data ?? event.dataTransfer?.getData('text/plain') ?? '';
      const start = input.selectionStart ?? input.value.length;
      const end = input.selectionEnd ?? start;
      const next = input.value.slice(0, start) + data + input.value.slice(end);
      const bounded = boundQuery(next);
      if (!bounded.cut) {
        return;
      }
      event.preventDefault();
      setCut(bounded.cut);
      if (bounded.query !== input.value) {
        // After this edit has been dispatched: an edit cannot start inside another one.
        window.setTimeout(() => {
          input.select();
          // Deprecated but universal, and it fires the input event a real edit would.
          document.execCommand('insertText', false, bounded.query);
        });
      }
    };
    const onInput = (event: Event) => {
      const {inputType} = event as InputEvent;
      if (inputType?.startsWith('delete')) {
        setCut(null);
      }
    };
    input.addEventListener('beforeinput', onBeforeInput);
    input.addEventListener('input', onInput);
    return () => {
      input.removeEventListener('beforeinput', onBeforeInput);
      input.removeEventListener('input', onInput);
    };
  }, [getInput]);

  useEffect(() => {
    const container = containerRef.current;
    const input = getInput();
    if (!container || !input) {
      return undefined;
    }
    const signals = createSearchSignals(track);
    const options = () => Array.from(container.querySelectorAll('[role="option"]'));
    let tapped: Element | null = null;
    const onInput = () => signals.changed(input.value);
    const onUpdated = () => {
      // A render while the box is not focused is the list being emptied on blur, not results.
      if (document.activeElement === input) {
        signals.shown(input.value, options().length);
      }
    };
    // A click or tap names its result; Enter chooses the highlighted one (the first by default).
    const onClick = (event: Event) => {
      tapped = event.target instanceof Element ? event.target.closest('[role="option"]') : null;
    };
    const onSelected = () => {
      const list = options();
      const chosen =
        tapped && list.includes(tapped)
          ? tapped
          : list.find((option) => option.getAttribute('aria-selected') === 'true');
      tapped = null;
      signals.chosen(chosen ? list.indexOf(chosen) + 1 : 1);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' || (event.key === 'Enter' && options().length === 0)) {
        signals.left();
      }
    };
    const onLeave = () => signals.left();
    const listeners = new AbortController();
    const {signal} = listeners;
    input.addEventListener('input', onInput, {signal});
    input.addEventListener('autocomplete:updated', onUpdated, {signal});
    input.addEventListener('autocomplete:selected', onSelected, {signal});
    input.addEventListener('keydown', onKeyDown, {signal});
    input.addEventListener('blur', onLeave, {signal});
    container.addEventListener('click', onClick, {capture: true, signal});
    window.addEventListener('pagehide', onLeave, {signal});
    return () => listeners.abort();
  }, [getInput]);

  // A click on the disabled box is remembered, like the shortcut.
  const onPointerDown = useCallback(() => {
    if (getInput()?.disabled) {
      focusWhenReady.current = true;
    }
  }, [getInput]);

  const [modifier, key] = shortcutHint(isMac);
  return (
    <div
      ref={containerRef}
      className={styles.searchBox}
      data-search-status={status}
      data-query-cut={cut ?? undefined}
      aria-busy={status === 'loading'}
      onPointerDown={onPointerDown}>
      <SearchBar {...props} />
      {isBrowser && (
        <span className={styles.shortcutHint} aria-hidden="true" data-testid="search-shortcut-hint">
          <kbd className={styles.key}>{modifier}</kbd>
          <kbd className={styles.key}>{key}</kbd>
        </span>
      )}
      <p className={clsx(styles.cutNotice, !cut && styles.hidden)} role="status">
        {cut ? cutNotice(cut) : ''}
      </p>
    </div>
  );
}
