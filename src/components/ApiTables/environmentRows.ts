import {ENVIRONMENTS} from '../../constants/api';

const environments = Object.values(ENVIRONMENTS);

/** Column headings of the environments table: one column per environment, in ENVIRONMENTS order. */
export const ENVIRONMENT_COLUMNS: readonly string[] = environments.map(({label}) => label);

/**
 * Rows of the environments table: a label, then per environment the values shown as code (joined by " / ").
 * Shared by the React table and its Markdown rendering (plugins/llms-txt), so both list the same facts.
 */
export const ENVIRONMENT_ROWS: ReadonlyArray<{label: string; cells: ReadonlyArray<readonly string[]>}> = [
  {label: 'API base', cells: environments.map(({apiBase}) => [apiBase])},
  {label: 'Token URL', cells: environments.map(({tokenUrl}) => [tokenUrl])},
  {label: 'Widget host', cells: environments.map(({widgetOrigin}) => [widgetOrigin])},
  {
    label: 'Client ID / secret prefix',
    cells: environments.map(({clientIdPrefix, clientSecretPrefix}) => [clientIdPrefix, clientSecretPrefix]),
  },
];
