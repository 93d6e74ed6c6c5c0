// The ejected CodeBlock's extra prop (src/theme/CodeBlock), on `@theme/CodeBlock` so components can pass it.
declare module '@theme/CodeBlock' {
  interface Props {
    /** The code's lines as highlighted HTML, made at build time by lib/highlight (never from a reader's input). */
    readonly highlighted?: string;
  }
}
