// What pages render about the contract, read from the generated artifacts so pages cannot disagree with the downloads.
import {parse} from 'yaml';

import {ARTIFACTS, ENVIRONMENTS, SANDBOX} from '../../src/constants/api';
import {ERROR_CODES} from '../../src/constants/behaviour';
import {codeBlockData, type CodeBlockData, type Highlighter} from '../highlight';
import {scopesFor} from './scopes';
import type {Artifacts} from './artifacts';
import {listOperations, operationScopes, type OpenApiDocument} from './openapi';
import {
  openApiPathOf,
  POSTMAN_RUNS,
  STATUS_TEST_NAME,
  VARIABLE_DESCRIPTIONS,
  type EnvironmentVariable,
  type PostmanCollection,
  type PostmanEnvironment,
  type PostmanEvent,
  type PostmanItem,
} from './postman';

export type ContractData = {
  scopes: {scope: string; description: string}[];
  /** `GET /v1/packages` → the scopes it needs. */
  operationScopes: Record<string, string[]>;
  /** The operations that take any valid access token, with no scope (`oauth2: []`). */
  tokenOnlyOperations: string[];
  postman: {
    collectionName: string;
    folders: {name: string; description: string; requests: PostmanRequestData[]}[];
    variables: {
      key: string;
      type: string;
      sandboxValue: string;
      liveValue: string;
      description: string;
      setByPreRequest: boolean;
      setBy: string[];
    }[];
    scripts: {prerequest: string[]; test: string[]};
    /** What every request of the collection needs together. */
    scopes: string[];
    runs: {
      happyPath: {
        folders: string[];
        requests: string[];
        scopes: string[];
        stores: string[];
      };
      failurePath: {
        folder: string;
        variable: string;
        value: string;
        /** The environment's own value, to set back afterwards. */
        resetValue: string;
        request: string;
        status: number;
        code: string;
        meaning: string;
        test: string;
        otherRequests: string[];
        keeps: string[];
      };
    };
  };
};

export type PostmanRequestData = {
  name: string;
  method: string;
  path: string;
  /** `GET /v1/orders/{order_id}`, the key of `operationScopes`. */
  operation: string;
  /** The request's own pre-request script (the collection's runs before it), empty when it has none. */
  prerequest: string[];
  test: string[];
};

const execOf = (events: readonly PostmanEvent[] | undefined, listen: PostmanEvent['listen']): string[] =>
  events?.find((event) => event.listen === listen)?.script.exec ?? [];

const variablesSetBy = (exec: readonly string[]): string[] =>
  [...exec.join('\n').matchAll(/pm\.environment\.set\('(\w+)'/g)].map((match) => match[1]!);

function requestOperation(item: PostmanItem, known: Record<string, unknown>): string {
  const request = item.request!;
  const host = request.url.host?.[0];
  const operationPath =
    host === '{{tokenUrl}}'
      ? new URL(ENVIRONMENTS.sandbox.tokenUrl).pathname
      : `${new URL(ENVIRONMENTS.sandbox.apiBase).pathname}${openApiPathOf(request.url)}`;
  const operation = `${request.method} ${operationPath}`;
  if (!(operation in known)) {
    throw new Error(`Postman request "${item.name}" (${operation}) is not an operation of the OpenAPI document`);
  }
  return operation;
}

function requestPath(item: PostmanItem): string {
  const url = item.request!.url;
  const host = url.host?.[0] ?? '';
  return `${host}${url.path?.length ? `/${url.path.join('/')}` : ''}`;
}

export function contractData(artifacts: Artifacts): ContractData {
  const document = parse(artifacts.get(ARTIFACTS.openapi)!) as OpenApiDocument;
  const oauth = document.components.securitySchemes!.oauth2 as {
    flows: {clientCredentials: {scopes: Record<string, string>}};
  };
  const collection = JSON.parse(artifacts.get(ARTIFACTS.postmanCollection)!) as PostmanCollection;
  const [sandbox, live] = [ARTIFACTS.postmanSandboxEnvironment, ARTIFACTS.postmanLiveEnvironment].map(
    (urlPath) => JSON.parse(artifacts.get(urlPath)!) as PostmanEnvironment,
  );
  const operationScopeMap = Object.fromEntries(
    listOperations(document).map(({method, path, operation}) => [
      `${method} ${path}`,
      operationScopes(document, operation),
    ]),
  );
  const folders = collection.item.map((folder) => ({
    name: folder.name,
    description: String(folder.description ?? ''),
    requests: (folder.item ?? []).map((item) => ({
      name: item.name,
      method: item.request!.method,
      path: requestPath(item),
      operation: requestOperation(item, operationScopeMap),
      prerequest: execOf(item.event, 'prerequest'),
      test: execOf(item.event, 'test'),
    })),
  }));
  const scripts = {prerequest: execOf(collection.event, 'prerequest'), test: execOf(collection.event, 'test')};
  const folderOfTag = (tag: string): string => {
    const index = document.tags.findIndex((candidate) => candidate.name === tag);
    if (!folders[index]) {
      throw new Error(`POSTMAN_RUNS names the tag "${tag}", which has no folder in the collection`);
    }
    return folders[index].name;
  };
  const {failurePath} = POSTMAN_RUNS;
  const failing = listOperations(document).find(({operation}) => operation.operationId === failurePath.operationId);
  const failingRequest = folders
    .find((folder) => folder.name === folderOfTag(failurePath.tag))
    ?.requests.find((request) => failing && request.operation === `${failing.method} ${failing.path}`);
  const failingError = ERROR_CODES.find((error) => error.code === SANDBOX.failingPackageError);
  if (!failingRequest || !failingError) {
    throw new Error(
      `POSTMAN_RUNS.failurePath: no request for ${failurePath.operationId} in its folder, or ${SANDBOX.failingPackageError} is not in ERROR_CODES`,
    );
  }
  if (!scripts.test.some((line) => line.includes(`pm.test('${STATUS_TEST_NAME}'`))) {
    throw new Error(`The collection test script has no "${STATUS_TEST_NAME}" test`);
  }

  const scopes = Object.entries(oauth.flows.clientCredentials.scopes).map(([scope, description]) => ({
    scope,
    description,
  }));
  const variables = sandbox!.values.map((value, index) => ({
    key: value.key,
    type: value.type ?? 'default',
    sandboxValue: String(value.value ?? ''),
    liveValue: String(live!.values[index]?.value ?? ''),
    description: VARIABLE_DESCRIPTIONS[value.key as EnvironmentVariable] ?? '',
    setByPreRequest: variablesSetBy(scripts.prerequest).includes(value.key),
    setBy: folders
      .flatMap((folder) => folder.requests)
      .filter((request) => variablesSetBy([...request.prerequest, ...request.test]).includes(value.key))
      .map((request) => request.name),
  }));
  const happyFolders = POSTMAN_RUNS.happyPath.tags.map(folderOfTag);
  const happyRequests = folders
    .filter((folder) => happyFolders.includes(folder.name))
    .flatMap((folder) => folder.requests);
  const failureFolder = folders.find((folder) => folder.name === folderOfTag(failurePath.tag))!;

  return {
    scopes,
    operationScopes: operationScopeMap,
    tokenOnlyOperations: listOperations(document)
      .filter(({operation}) =>
        ((operation.security ?? document.security ?? []) as Record<string, string[]>[]).some(
          (requirement) => requirement.oauth2?.length === 0,
        ),
      )
      .map(({method, path}) => `${method} ${path}`),
    postman: {
      collectionName: collection.info.name,
      folders,
      variables,
      scripts,
      scopes: scopesFor(
        {scopes, operationScopes: operationScopeMap},
        folders.flatMap((folder) => folder.requests).map((request) => request.operation),
      ),
      runs: {
        happyPath: {
          folders: happyFolders,
          requests: happyRequests.map((request) => request.name),
          scopes: scopesFor(
            {scopes, operationScopes: operationScopeMap},
            happyRequests.map((request) => request.operation),
          ),
          stores: variables
            .filter((variable) => variable.setBy.some((name) => happyRequests.some((request) => request.name === name)))
            .map((variable) => variable.key),
        },
        failurePath: {
          folder: failureFolder.name,
          variable: failurePath.variable,
          value: SANDBOX.failingPackageId,
          resetValue: variables.find((variable) => variable.key === failurePath.variable)!.sandboxValue,
          request: failingRequest.name,
          status: failingError.status,
          code: failingError.code,
          meaning: failingError.summary,
          test: STATUS_TEST_NAME,
          otherRequests: failureFolder.requests
            .filter((request) => request !== failingRequest)
            .map((request) => request.name),
          keeps: variables
            .filter((variable) => variable.setBy.includes(failingRequest.name))
            .map((variable) => variable.key),
        },
      },
    },
  };
}

type PostmanListen = PostmanEvent['listen'];
type PostmanScriptSet = Partial<Record<PostmanListen, CodeBlockData>>;

/** The collection's scripts as highlighted JavaScript blocks: its own, and each request's under its operation. */
export type PostmanScriptBlocks = {collection: PostmanScriptSet; requests: Record<string, PostmanScriptSet>};

export function postmanScriptBlocks(postman: ContractData['postman'], highlight: Highlighter): PostmanScriptBlocks {
  const blocks = (scripts: Record<PostmanListen, string[]>): PostmanScriptSet =>
    Object.fromEntries(
      (['prerequest', 'test'] as const)
        .filter((listen) => scripts[listen].length > 0)
        .map((listen) => [listen, codeBlockData(highlight, scripts[listen].join('\n'), 'js')]),
    );
  return {
    collection: blocks(postman.scripts),
    requests: Object.fromEntries(
      postman.folders.flatMap((folder) => folder.requests).map((request) => [request.operation, blocks(request)]),
    ),
  };
}
