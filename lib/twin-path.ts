// Shared by the writer of the Markdown twins and the page actions that link to them.
export function twinPath(permalink: string): string {
  return permalink.endsWith('/') ? `${permalink}index.md` : `${permalink}.md`;
}
