// Exists only in builds made with DOCS_CRASH_TEST=true (the e2e suite's build): it proves the
// crash page. It crashes on the client until `window.crashTestRecovered` is set, so a test can
// show that 'Try again' re-renders the page once the cause is gone.
import type {ReactNode} from 'react';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import useIsBrowser from '@docusaurus/useIsBrowser';

declare global {
  interface Window {
    crashTestRecovered?: boolean;
  }
}

function Crasher(): ReactNode {
  const isBrowser = useIsBrowser();
  if (isBrowser && !window.crashTestRecovered) {
    const rootCause = new Error('Simulated upstream timeout');
    throw new Error('Crash test: rendering failed on purpose', {cause: rootCause});
  }
  return <p data-testid="crash-test-recovered">The crash-test page rendered without crashing.</p>;
}

export default function CrashTestPage(): ReactNode {
  return (
    <Layout title="Crash test" description="A page that crashes on purpose to prove the crash page.">
      <main className="container margin-vert--lg">
        <Heading as="h1">Crash test</Heading>
        <Crasher />
      </main>
    </Layout>
  );
}
