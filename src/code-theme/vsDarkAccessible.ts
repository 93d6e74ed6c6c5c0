/**
 * prism-react-renderer's vsDark, with only the token colours that fail WCAG AA (4.5:1) on its
 * #1E1E1E background lightened in the same hue: `constant` (3.1:1), `prolog` (1.0:1) and the grey
 * tag `punctuation` (4.2:1). Everything else is vsDark unchanged.
 */
import {themes, type PrismTheme} from 'prism-react-renderer';

const accessibleColours: Record<string, string> = {
  'rgb(100, 102, 149)': 'rgb(150, 152, 214)', // constant: 6.2:1
  'rgb(0, 0, 128)': 'rgb(128, 128, 255)', // prolog: 5.1:1
  '#808080': '#9a9a9a', // punctuation: 5.9:1
};

export const vsDarkAccessible: PrismTheme = {
  ...themes.vsDark,
  styles: themes.vsDark.styles.map((entry) => {
    const colour = entry.style.color;
    return colour && accessibleColours[colour]
      ? {...entry, style: {...entry.style, color: accessibleColours[colour]}}
      : entry;
  }),
};
