import {ENVIRONMENTS} from '../../constants/api';

const environments = Object.values(ENVIRONMENTS);

export const ENVIRONMENT_COLUMNS: readonly string[] = environments.map(({label}) => label);

export const ENVIRONMENT_ROWS: ReadonlyArray<{label: string; cells: ReadonlyArray<readonly string[]>}> = [
  {label: 'API base', cells: environments.map(({apiBase}) => [apiBase])},
  {label: 'Token URL', cells: environments.map(({tokenUrl}) => [tokenUrl])},
  {label: 'Widget host', cells: environments.map(({widgetOrigin}) => [widgetOrigin])},
  {
    label: 'Client ID / secret prefix',
    cells: environments.map(({clientIdPrefix, clientSecretPrefix}) => [clientIdPrefix, clientSecretPrefix]),
  },
];
