/**
 * Markdown renderings of the site's own MDX components and the constants modules pages import,
 * for the `.md` twins. Every component a page uses needs an entry here (the converter fails the
 * build on an unknown one), rendered from the same constants as the React component.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

import type {List, PhrasingContent, RootContent, Table, TableCell, TableRow} from 'mdast';

import * as apiConstants from '../../src/constants/api';
import * as docsConstants from '../../src/constants/docs';
import * as siteConstants from '../../src/constants/site';
import {ERROR_CODES, POSTMAN, WEBHOOK_EVENTS} from '../../src/constants/api';
import type {ContractData} from '../../lib/contract/data';
import {scopesFor} from '../../lib/contract/scopes';
import {ENVIRONMENT_COLUMNS, ENVIRONMENT_ROWS} from '../../src/components/ApiTables/environmentRows';
import {DECLARATION, extractSdkMethods} from '../../lib/sdk-surface';

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

/** "a", "a and b", "a, b and c" (as `listOf` in ApiTables). */
function listOf(items: readonly PhrasingContent[][]): PhrasingContent[] {
  return items.flatMap((item, index) => [...(index === 0 ? [] : [text(index === items.length - 1 ? ' and ' : ', ')]), ...item]);
}

const strong = (value: string): PhrasingContent => ({type: 'strong', children: [text(value)]});
const codes = (values: readonly string[]) => listOf(values.map((value) => [code(value)]));

function orderedList(items: readonly PhrasingContent[][]): List {
  return {type: 'list', ordered: true, start: 1, spread: false, children: items.map((children) => ({type: 'listItem', spread: false, children: [{type: 'paragraph', children}]}))};
}

function postmanRequestFor(contract: ContractData, operation: string) {
  for (const folder of contract.postman.folders) {
    const request = folder.requests.find((candidate) => candidate.operation === operation);
    if (request) {
      return {folder, request};
    }
  }
  throw new Error(`No request of the Postman collection sends "${operation}"`);
}

/** The Postman components of ApiTables, from the same contract data as the React ones. */
const POSTMAN_RENDERERS: Readonly<Record<string, ComponentRenderer>> = {
  PostmanFolderTable: (_props, {contract}) => [
    table(
      ['Folder', 'Covers', 'Requests', 'Scopes'],
      contract.postman.folders.map((folder) => {
        const scopes = scopesFor(contract, folder.requests.map((request) => request.operation));
        return [[code(folder.name)], withCode(folder.description), [text(folder.requests.map((request) => request.name).join(', '))], scopes.length > 0 ? codes(scopes) : [text('none')]];
      }),
    ),
  ],
  PostmanVariableTable: (_props, {contract}) => [
    table(
      ['Variable', 'Purpose', 'Sandbox value'],
      contract.postman.variables.map((variable) => {
        const setters = [...(variable.setByPreRequest ? [[text('the pre-request script')]] : []), ...variable.setBy.map((name) => [text('the test of '), strong(name)])];
        return [
          [code(variable.key)],
          [...withCode(variable.description), text('.'), ...(setters.length > 0 ? [text(' Set by '), ...listOf(setters), text('.')] : [])],
          [variable.sandboxValue ? code(variable.sandboxValue) : text('empty')],
        ];
      }),
    ),
  ],
  PostmanScript: ({listen, operation}, {contract}) => {
    if (operation !== undefined && listen !== 'test') {
      throw new Error('PostmanScript: requests have only test scripts');
    }
    const exec = operation === undefined ? contract.postman.scripts[listen as 'prerequest' | 'test'] : postmanRequestFor(contract, String(operation)).request.test;
    return [{type: 'code', lang: 'js', meta: null, value: exec.join('\n')}];
  },
  PostmanRequestName: ({operation}, {contract}) => {
    const {folder, request} = postmanRequestFor(contract, String(operation));
    return [code(folder.name), text(' → '), strong(request.name)] as RootContent[];
  },
  PostmanRunScopes: (_props, {contract}) => codes(contract.postman.runs.happyPath.scopes) as RootContent[],
  PostmanRunSteps: ({run}, {contract}) => {
    if (run === 'happyPath') {
      const {folders, requests, stores} = contract.postman.runs.happyPath;
      return [
        orderedList([
          [text('Select the collection '), strong(contract.postman.collectionName), text(' and choose '), strong('Run'), text(' to open the Collection Runner.')],
          [text('Select the environment '), strong(POSTMAN.sandboxEnvironmentName), text('.')],
          [text('Check only the folders '), ...codes(folders), text(', in that order.')],
          [
            text('Select '),
            strong('Run'),
            text(`. All ${requests.length} requests, from `),
            strong(requests[0]!),
            text(' to '),
            strong(requests.at(-1)!),
            text(', pass their tests, and the test scripts store '),
            ...codes(stores),
            text(' for the requests that follow.'),
          ],
        ]),
      ];
    }
    const failure = contract.postman.runs.failurePath;
    return [
      orderedList([
        [text('In '), strong(POSTMAN.sandboxEnvironmentName), text(', set the current value of '), code(failure.variable), text(' to '), code(failure.value), text('.')],
        [text('Run only the folder '), code(failure.folder), text('.')],
        [
          strong(failure.request),
          text(` answers HTTP ${failure.status} with the error code `),
          code(failure.code),
          text(' ('),
          ...withCode(`${failure.meaning.charAt(0).toLowerCase()}${failure.meaning.slice(1)}`),
          text('). Its test '),
          code(failure.test),
          text(' fails with a message that starts '),
          code(`${failure.status} ${failure.code}`),
          text('. The other requests, '),
          ...listOf(failure.otherRequests.map((name) => [strong(name)])),
          text(', pass, and '),
          ...codes(failure.keeps),
          text(' keep the values of the last order.'),
        ],
        [text('Set '), code(failure.variable), text(' back to '), code(failure.resetValue), text('.')],
      ]),
    ];
  },
};

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
    ...POSTMAN_RENDERERS,
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
