// `npm run mcp [-- --build <dir>]` (or DOCS_BUILD_DIR): the docs' MCP server on stdio, for a coding assistant to start.
import path from 'node:path';
import {parseArgs} from 'node:util';

import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';

import {BuiltDocs} from './docs';
import {createDocsServer} from './server';

const {values} = parseArgs({
  options: {build: {type: 'string', default: process.env.DOCS_BUILD_DIR ?? path.join(__dirname, '..', 'build')}},
});
const docs = new BuiltDocs(path.resolve(values.build!));
createDocsServer(docs)
  .connect(new StdioServerTransport())
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
