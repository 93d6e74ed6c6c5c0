/**
 * Markdown renderings of the site's own MDX components and the constants modules pages import,
 * for the `.md` twins. Every component a page uses needs an entry here (the converter fails the
 * build on an unknown one), rendered from the same constants as the React component.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

import type {PhrasingContent, RootContent, Table, TableCell, TableRow} from 'mdast';

import * as apiConstants from '../../src/constants/api';
import * as docsConstants from '../../src/constants/docs';
import * as siteConstants from '../../src/constants/site';
import {ERROR_CODES, WEBHOOK_EVENTS} from '../../src/constants/api';
import type {ContractData} from '../api-artifacts/contract-data';
import {scopesFor} from '../../src/components/ApiTables/scopesFor';
import {ENVIRONMENT_COLUMNS, ENVIRONMENT_ROWS} from '../../src/components/ApiTables/environmentRows';
import {DECLARATION, extractSdkMethods} from '../sdk-reference';

/** Modules whose exports pages may use in `{…}` expressions and attributes (`import {BRAND} from '@site/src/constants/site'`). */
export const CONSTANT_MODULES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  '@site/src/constants/site': siteConstants,
  '@site/src/constants/api': apiConstants,
  '@site/src/constants/docs': docsConstants,
};

export type RenderContext = {
  /** Absolute URL of the page being rendered (for `#anchor` links). */
  pageUrl: string;
  /** The served contract's facts (scopes, Postman collection). */
  contract: ContractData;
};

/** Renders a component (its props already evaluated) as flow content. */
export type ComponentRenderer = (props: Readonly<Record<string, unknown>>, context: RenderContext) => RootContent[];

/** Backticked spans in a constant's text become inline code (as `withCode` in ApiTables). */
export function withCode(text: string): PhrasingContent[] {
  return text
    .split(/(`[^`]+`)/)
    .filter((part) => part !== '')
    .map((part): PhrasingContent =>
      part.startsWith('`') && part.endsWith('`') ? {type: 'inlineCode', value: part.slice(1, -1)} : {type: 'text', value: part},
    );
}

const text = (value: string | number): PhrasingContent => ({type: 'text', value: String(value)});
const code = (value: string): PhrasingContent => ({type: 'inlineCode', value});

function table(header: readonly string[], rows: ReadonlyArray<readonly PhrasingContent[][]>): Table {
  const row = (cells: readonly PhrasingContent[][]): TableRow => ({
    type: 'tableRow',
    children: cells.map((children): TableCell => ({type: 'tableCell', children})),
  });
  return {
    type: 'table',
    align: header.map(() => null),
    children: [row(header.map((label) => [text(label)])), ...rows.map(row)],
  };
}

/** Modules of React components pages import, by import source, then export name. */
export const COMPONENT_MODULES: Readonly<Record<string, Readonly<Record<string, ComponentRenderer>>>> = {
  '@site/src/components/ApiTables': {
    ScopeTable: (_props, {contract}) => [table(['Scope', 'Allows'], contract.scopes.map(({scope, description}) => [[code(scope)], withCode(description)]))],
    RequiredScopes: ({operations}, {contract}) =>
      scopesFor(contract, operations as string[]).flatMap((scope, index, scopes): PhrasingContent[] => [
        ...(index === 0 ? [] : [text(index === scopes.length - 1 ? ' and ' : ', ')]),
        code(scope),
      ]) as RootContent[],
    EnvironmentTable: () => [
      table(
        ['', ...ENVIRONMENT_COLUMNS],
        ENVIRONMENT_ROWS.map(({label, cells}) => [
          [text(label)],
          ...cells.map((values) => values.flatMap((value, index): PhrasingContent[] => [...(index === 0 ? [] : [text(' / ')]), code(value)])),
        ]),
      ),
    ],
    WebhookEventTable: () => [
      table(['Event type', 'Sent when'], WEBHOOK_EVENTS.map(({type, when}) => [[code(type)], withCode(when)])),
    ],
    ErrorCodeTable: (_props, {pageUrl}) => [
      table(
        ['HTTP', 'Code', 'Meaning', 'SDK class'],
        ERROR_CODES.map(({code: errorCode, status, summary, sdkClass}) => [
          [text(status)],
          [{type: 'link', url: `${pageUrl}#${errorCode}`, children: [code(errorCode)]}],
          withCode(summary),
          [code(sdkClass)],
        ]),
      ),
    ],
  },
  '@site/src/components/SdkMethodTable': {
    default: () => [
      table(
        ['Method', 'Endpoint'],
        extractSdkMethods(readFileSync(path.resolve(__dirname, '..', '..', DECLARATION), 'utf8')).map(({call, endpoint, summary}) => [
          [code(call)],
          endpoint === null ? [text(`None: ${summary.charAt(0).toLowerCase()}${summary.slice(1).replace(/\.$/, '')}`)] : [code(endpoint)],
        ]),
      ),
    ],
  },
};
