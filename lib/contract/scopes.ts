export type ScopeData = {scopes: {scope: string}[]; operationScopes: Record<string, string[]>};

/** The scopes a token needs for every one of `operations` (`METHOD /path` templates), in the document's scope order. */
export function scopesFor(data: ScopeData, operations: readonly string[]): string[] {
  const needed = new Set(
    operations.flatMap((operation) => {
      const scopes = data.operationScopes[operation];
      if (!scopes) {
        throw new Error(
          `"${operation}" is not an operation of the OpenAPI document (write it as "METHOD /v1/path/{param}")`,
        );
      }
      return scopes;
    }),
  );
  return data.scopes.map(({scope}) => scope).filter((scope) => needed.has(scope));
}
