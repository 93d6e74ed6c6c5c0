/**
 * The facts of the served contract that pages render (the scope table, "you need these scopes",
 * the Postman collection's folders, variables and scripts, and the runs the Test in Postman page
 * walks through), taken from the generated artifacts so that the pages cannot disagree with the
 * downloads.
 */
import {parse} from 'yaml';

import {ARTIFACTS, ENVIRONMENTS, ERROR_CODES, SANDBOX} from '../../src/constants/api';
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
  /** Every OAuth scope of the document, in its order, with its description. */
  scopes: {scope: string; description: string}[];
  /** `GET /v1/packages` → the scopes it needs. */
  operationScopes: Record<string, string[]>;
  postman: {
    collectionName: string;
    /** The collection's folders in order, each with its tag's description and its requests. */
    folders: {name: string; description: string; requests: PostmanRequestData[]}[];
    variables: {
      key: string;
      type: string;
      sandboxValue: string;
      liveValue: string;
      /** What it is for (postman.ts VARIABLE_DESCRIPTIONS). */
      description: string;
      /** The collection's pre-request script sets it. */
      setByPreRequest: boolean;
      /** The requests whose test scripts set it. */
      setBy: string[];
    }[];
    /** The `exec` lines of the collection-level scripts. */
    scripts: {prerequest: string[]; test: string[]};
    /** The runs the Test in Postman page describes (postman.ts POSTMAN_RUNS). */
    runs: {
      happyPath: {
        /** Run these folders, in this order … */
        folders: string[];
        /** … which send these requests … */
        requests: string[];
        /** … with a token holding these scopes; every test passes and the test scripts store `stores`. */
        scopes: string[];
        stores: string[];
      };
      failurePath: {
        /** Set `variable` to `value` (the sandbox's always-failing package) and run `folder` again … */
        folder: string;
        variable: string;
        value: string;
        /** … (the environment's own value, to set back afterwards) … */
        resetValue: string;
        /** … then `request` answers `status` with the error `code` (`meaning` from ERROR_CODES) and fails the collection test `test` … */
        request: string;
        status: number;
        code: string;
        meaning: string;
        test: string;
        /** … while the folder's `otherRequests` pass and the variables it would have stored keep their values. */
        otherRequests: string[];
        keeps: string[];
      };
    };
  };
};

export type PostmanRequestData = {
  name: string;
  method: string;
  /** As Postman shows it: `{{baseUrl}}/orders/:order_id`. */
  path: string;
  /** The OpenAPI operation it sends: `GET /v1/orders/{order_id}` (the key of `operationScopes`). */
  operation: string;
  /** The `exec` lines of its own test script (none: only the collection's test runs). */
  test: string[];
};

const execOf = (events: readonly PostmanEvent[] | undefined, listen: PostmanEvent['listen']): string[] =>
  events?.find((event) => event.listen === listen)?.script.exec ?? [];

/** The variables a script sets with `pm.environment.set('name', …)`. */
const variablesSetBy = (exec: readonly string[]): string[] =>
  [...exec.join('\n').matchAll(/pm\.environment\.set\('(\w+)'/g)].map((match) => match[1]!);

/** The OpenAPI operation of a request: `{{tokenUrl}}` is the token path, `{{baseUrl}}` the API base path. */
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
      .filter((request) => variablesSetBy(request.test).includes(value.key))
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
    postman: {
      collectionName: collection.info.name,
      folders,
      variables,
      scripts,
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
