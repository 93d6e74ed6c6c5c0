/**
 * The one docs sidebar (spec §2). sidebars.ts generates it from docs/ (front matter and
 * `_category_.json`), so a new page needs no entry here; the tests take the pages from the build.
 */
export const SIDEBAR_ID = 'tutorialSidebar';
