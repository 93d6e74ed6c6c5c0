// Wrap: the footer is the stock one, fed from the constants module (copyright, no links) so the
// notice cannot drift from the brand; the theme config's `footer` only sets the style.
import type {ReactNode} from 'react';
import FooterLayout from '@theme/Footer/Layout';
import FooterCopyright from '@theme/Footer/Copyright';
import {useThemeConfig} from '@docusaurus/theme-common';
import {COPYRIGHT} from '@site/src/constants/site';

export default function FooterWrapper(): ReactNode {
  const {footer} = useThemeConfig();
  return (
    <FooterLayout
      style={footer?.style ?? 'dark'}
      links={null}
      logo={null}
      copyright={<FooterCopyright copyright={COPYRIGHT} />}
    />
  );
}
