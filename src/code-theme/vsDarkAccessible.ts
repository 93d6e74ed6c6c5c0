// vsDark with only its sub-AA token colours (`constant`, `prolog`, tag `punctuation`) lightened in the same hue.
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
