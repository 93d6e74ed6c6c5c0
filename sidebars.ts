import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';
import {DOC_CATEGORIES, SIDEBAR_ID} from './src/constants/docs';

// One sidebar, in the order and grouping of the spec's route table (src/constants/docs.ts).
const sidebars: SidebarsConfig = {
  [SIDEBAR_ID]: DOC_CATEGORIES.map((category) => ({
    type: 'category' as const,
    label: category.label,
    collapsible: false,
    items: category.docs.map((doc) => doc.id),
  })),
};

export default sidebars;
