/**
 * Where a page's Markdown twin lives: its path plus `.md`, `/index.md` for `/` (and `…/index.md`
 * for `…/`). Shared by the plugin (which writes the twins) and the page actions (which link to them).
 */
export function twinPath(permalink: string): string {
  return permalink.endsWith('/') ? `${permalink}index.md` : `${permalink}.md`;
}
