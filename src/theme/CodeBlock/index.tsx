/**
 * Ejected (a wrap cannot drop the key set inside the original): stock CodeBlock remounts every block
 * after hydration so that a different dark Prism theme can replace the server's; ours is the same in
 * both modes, so that only redid the work (mobile Lighthouse: BENCHMARKS.md, "Ejects"). The stock
 * remount is kept when the two themes differ.
 */
import React, {isValidElement, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {useThemeConfig} from '@docusaurus/theme-common';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';
import type {Props} from '@theme/CodeBlock';

/**
 * Best attempt to make the children a plain string so it is copyable. If there
 * are react elements, we will not be able to copy the content, and it will
 * return `children` as-is; otherwise, it concatenates the string children
 * together.
 */
function maybeStringifyChildren(children: ReactNode): ReactNode {
  if (React.Children.toArray(children).some((el) => isValidElement(el))) {
    return children;
  }
  // The children is now guaranteed to be one/more plain strings
  return Array.isArray(children) ? children.join('') : (children as string);
}

/** The stock behaviour, for a site whose dark Prism theme differs from the light one. */
function RemountedAfterHydration({children, ...props}: Props): ReactNode {
  const isBrowser = useIsBrowser();
  const CodeBlockComp = typeof children === 'string' ? StringContent : ElementContent;
  return (
    <CodeBlockComp key={String(isBrowser)} {...props}>
      {children as string}
    </CodeBlockComp>
  );
}

type PrismConfig = ReturnType<typeof useThemeConfig>['prism'];
const themesDiffer = new WeakMap<PrismConfig, boolean>();

/** Compared by value: the site config reaches the client serialized, so the two are never the same object. */
function darkThemeDiffers(prism: PrismConfig): boolean {
  let differs = themesDiffer.get(prism);
  if (differs === undefined) {
    differs = Boolean(prism.darkTheme) && JSON.stringify(prism.darkTheme) !== JSON.stringify(prism.theme);
    themesDiffer.set(prism, differs);
  }
  return differs;
}

export default function CodeBlock({children: rawChildren, ...props}: Props): ReactNode {
  const {prism} = useThemeConfig();
  const children = maybeStringifyChildren(rawChildren);
  if (darkThemeDiffers(prism)) {
    return <RemountedAfterHydration {...props}>{children}</RemountedAfterHydration>;
  }
  // Not subscribed to useIsBrowser: its flip after hydration would re-render every block.
  const CodeBlockComp = typeof children === 'string' ? StringContent : ElementContent;
  return <CodeBlockComp {...props}>{children as string}</CodeBlockComp>;
}
