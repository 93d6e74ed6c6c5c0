/**
 * The facts of the served contract that pages render (the scope table, "you need these scopes",
 * the Postman collection's folders and variables), taken from the generated artifacts so that
 * the pages cannot disagree with the downloads.
 */
import {parse} from 'yaml';

import {ARTIFACTS} from '../../src/constants/api';
import type {Artifacts} from './generate';
import {listOperations, operationScopes, type OpenApiDocument} from './openapi';
import type {PostmanCollection, PostmanEnvironment, PostmanItem} from './postman';

export type ContractData = {
  /** Every OAuth scope of the document, in its order, with its description. */
  scopes: {scope: string; description: string}[];
  /** `GET /v1/packages` → the scopes it needs. */
  operationScopes: Record<string, string[]>;
  postman: {
    collectionName: string;
    folders: {name: string; requests: {name: string; method: string; path: string}[]}[];
    variables: {key: string; type: string; sandboxValue: string; liveValue: string}[];
  };
};

function requestPath(item: PostmanItem): string {
  const url = item.request!.url;
  const host = url.host?.[0] ?? '';
  return `${host}${url.path?.length ? `/${url.path.join('/')}` : ''}`;
}

export function contractData(artifacts: Artifacts): ContractData {
  const document = parse(artifacts.get(ARTIFACTS.openapi)!) as OpenApiDocument;
  const oauth = document.components.securitySchemes!.oauth2 as {flows: {clientCredentials: {scopes: Record<string, string>}}};
  const collection = JSON.parse(artifacts.get(ARTIFACTS.postmanCollection)!) as PostmanCollection;
  const [sandbox, live] = [ARTIFACTS.postmanSandboxEnvironment, ARTIFACTS.postmanLiveEnvironment].map(
    (urlPath) => JSON.parse(artifacts.get(urlPath)!) as PostmanEnvironment,
  );
  return {
    scopes: Object.entries(oauth.flows.clientCredentials.scopes).map(([scope, description]) => ({scope, description})),
    operationScopes: Object.fromEntries(
      listOperations(document).map(({method, path, operation}) => [`${method} ${path}`, operationScopes(document, operation)]),
    ),
    postman: {
      collectionName: collection.info.name,
      folders: collection.item.map((folder) => ({
        name: folder.name,
        requests: (folder.item ?? []).map((item) => ({name: item.name, method: item.request!.method, path: requestPath(item)})),
      })),
      variables: sandbox!.values.map((value, index) => ({
        key: value.key,
        type: value.type ?? 'default',
        sandboxValue: String(value.value ?? ''),
        liveValue: String(live!.values[index]?.value ?? ''),
      })),
    },
  };
}
