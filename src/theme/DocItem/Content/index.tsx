// Wrap: adds the "Copy page as Markdown" / "View as Markdown" actions above each doc's title.
import type {ReactNode} from 'react';
import Content from '@theme-original/DocItem/Content';
import type ContentType from '@theme/DocItem/Content';
import type {WrapperProps} from '@docusaurus/types';
import PageMarkdownActions from '@site/src/components/PageMarkdownActions';

type Props = WrapperProps<typeof ContentType>;

export default function DocItemContentWrapper(props: Props): ReactNode {
  return (
    <>
      {/* The Markdown twins are written from a production build's HTML: under `npm start` there are none to copy or view. */}
      {process.env.NODE_ENV === 'production' && <PageMarkdownActions />}
      <Content {...props} />
    </>
  );
}
