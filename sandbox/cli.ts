/**
 * `npm run sandbox [-- --port N] [-- --scopes "catalog:read orders:write"]`: runs the local
 * sandbox with one test credential until Ctrl-C.
 */
import {parseArgs} from 'node:util';

import {TOKEN_URL_PATH, documentScopes, sandboxDocument, startSandbox} from './server';

async function main() {
  const {values} = parseArgs({options: {port: {type: 'string', default: '4010'}, scopes: {type: 'string'}}});
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a port number, not ${values.port}`);
  }
  // Default: every scope the document defines.
  const scopes = values.scopes?.split(/\s+/).filter(Boolean) ?? documentScopes((await sandboxDocument()).document);
  const credential = {clientId: 'ci_test_local', clientSecret: 'cs_test_local', scopes};
  const sandbox = await startSandbox({credentials: [credential], port});

  console.log(`Sandbox API listening on ${sandbox.origin} (scopes: ${scopes.join(' ')})`);
  console.log(`export ACME_CLIENT_ID=${credential.clientId}`);
  console.log(`export ACME_CLIENT_SECRET=${credential.clientSecret}`);
  console.log(`export ACME_SANDBOX_ORIGIN=${sandbox.origin}`);
  console.log(
    `curl -s -u "$ACME_CLIENT_ID:$ACME_CLIENT_SECRET" -d grant_type=client_credentials ${sandbox.origin}${TOKEN_URL_PATH}`,
  );
  console.log('Ctrl-C stops it.');

  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
