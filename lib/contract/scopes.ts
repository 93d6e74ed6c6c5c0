import type {ContractData} from './data';

/** The scopes a token needs for every one of `operations` (`METHOD /path` templates), in the document's scope order. */
export function scopesFor(data: Pick<ContractData, 'scopes' | 'operationScopes'>, operations: readonly string[]): string[] {
  const needed = new Set(
    operations.flatMap((operation) => {
      const scopes = data.operationScopes[operation];
      if (!scopes) {
        throw new Error(`"${operation}" is not an operation of the OpenAPI document (write it as "METHOD /v1/path/{param}")`);
      }
      return scopes;
    }),
  );
  return data.scopes.map(({scope}) => scope).filter((scope) => needed.has(scope));
}
