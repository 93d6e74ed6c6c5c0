/**
 * A chunk that fails before hydration leaves Docusaurus with static HTML and an unhandled rejection, so this shows
 * the spec's error box in plain DOM; after hydration a failed prefetch is harmless and only logged.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

const BOX_ID = 'chunk-load-failure';

function isChunkLoadError(reason: unknown): reason is Error {
  return (
    reason instanceof Error &&
    (reason.name === 'ChunkLoadError' || /Loading (CSS )?chunk .+ failed/.test(reason.message))
  );
}

function showRetryBox(error: Error): void {
  if (document.getElementById(BOX_ID)) {
    return;
  }
  const box = document.createElement('div');
  box.id = BOX_ID;
  box.setAttribute('role', 'alert');
  // Inline styles: this box is rare, so its rules stay out of every page's stylesheet.
  Object.assign(box.style, {
    margin: '1rem auto',
    maxWidth: '40rem',
    padding: '1rem',
    borderRadius: '0.4rem',
    background: '#b71c1c',
    color: '#fff',
    textAlign: 'center',
  });
  const message = document.createElement('p');
  message.textContent = String(error);
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.textContent = 'Retry';
  Object.assign(retry.style, {
    padding: '0.4rem 1.2rem',
    border: '2px solid #fff',
    borderRadius: '0.4rem',
    background: '#fff',
    color: '#b71c1c',
    fontWeight: '700',
    cursor: 'pointer',
  });
  retry.addEventListener('click', () => window.location.reload());
  box.append(message, retry);
  document.body.prepend(box);
}

if (ExecutionEnvironment.canUseDOM) {
  window.addEventListener('unhandledrejection', (event) => {
    if (!isChunkLoadError(event.reason)) {
      return;
    }
    event.preventDefault();
    if (document.documentElement.dataset.hasHydrated === 'true') {
      console.warn('A page chunk could not be prefetched; it will be fetched again when needed.', event.reason);
      return;
    }
    showRetryBox(event.reason);
  });
}
