/**
 * The site map of spec §2: every doc, its route and its sidebar category, in sidebar order.
 * sidebars.ts builds the sidebar from it and the tests take their route list from it.
 */
export const SIDEBAR_ID = 'tutorialSidebar';

export const DOC_CATEGORIES = [
  {
    label: 'Getting started',
    docs: [
      {id: 'getting-started/introduction', path: '/', title: 'Introduction'},
      {id: 'getting-started/quick-start', path: '/getting-started/quick-start', title: 'Quick start'},
      {id: 'getting-started/main-concepts', path: '/getting-started/main-concepts', title: 'Main concepts'},
      {id: 'getting-started/authentication', path: '/getting-started/authentication', title: 'Authentication'},
    ],
  },
  {
    label: 'Basics',
    docs: [
      {id: 'basics/sdk', path: '/basics/sdk', title: 'SDK'},
      {id: 'basics/iframe', path: '/basics/iframe', title: 'Iframe'},
      {id: 'basics/test-in-postman', path: '/basics/test-in-postman', title: 'Test in Postman'},
    ],
  },
  {
    label: 'Account management',
    docs: [
      {id: 'account-management/dashboard', path: '/account-management/dashboard', title: 'Dashboard'},
      {id: 'account-management/billing', path: '/account-management/billing', title: 'Billing'},
    ],
  },
  {
    label: 'Additional',
    docs: [
      {id: 'additional/changelog', path: '/additional/changelog', title: 'Changelog'},
      {id: 'additional/contact-and-help-center', path: '/additional/contact-and-help-center', title: 'Contact and help center'},
    ],
  },
] as const;

export type DocEntry = {readonly id: string; readonly path: string; readonly title: string};

export const ALL_DOCS: readonly DocEntry[] = DOC_CATEGORIES.flatMap((category): readonly DocEntry[] => category.docs);
