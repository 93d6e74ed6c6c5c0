// sidebars.ts generates the sidebar from docs/, so a new page needs no entry here.
export const SIDEBAR_ID = 'tutorialSidebar';
