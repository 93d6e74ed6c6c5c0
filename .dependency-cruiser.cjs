// The architecture, enforced by `npm run lint` (dependency-cruiser): lib/ is the neutral core, plugins stand alone, tests are leaves.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {name: 'no-cycle', severity: 'error', from: {}, to: {circular: true}},
    {
      name: 'resolvable',
      comment: "An import of the site's own files that the rules cannot resolve is one they cannot check.",
      severity: 'error',
      from: {},
      to: {couldNotResolve: true, path: '^(@site/|\\.)'},
    },
    {
      name: 'lib-is-neutral',
      comment: 'lib/ holds what everything shares; it imports only the constants, never the code that uses it.',
      severity: 'error',
      from: {path: '^lib/'},
      to: {pathNot: '^(lib|src/constants|node_modules)/', dependencyTypesNot: ['core']},
    },
    {
      name: 'plugins-stand-alone',
      comment: 'A plugin shares code through lib/, never by importing another plugin.',
      severity: 'error',
      from: {path: '^plugins/([^/]+)/'},
      to: {path: '^plugins/', pathNot: '^plugins/$1/'},
    },
    {
      name: 'plugins-are-build-time',
      comment: 'Components, the theme and the MCP server share code with plugins through lib/, never by importing one.',
      severity: 'error',
      from: {path: '^(src|mcp)/'},
      to: {path: '^plugins/'},
    },
    {
      name: 'nothing-imports-tests',
      severity: 'error',
      from: {pathNot: '^(tests|bench)/'},
      to: {path: '^tests/'},
    },
  ],
  options: {
    doNotFollow: {path: 'node_modules'},
    exclude: {path: '^(build|\\.docusaurus[^/]*|node_modules)/'},
    tsConfig: {fileName: 'tsconfig.json'},
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {extensions: ['.ts', '.tsx', '.mjs', '.js', '.json']},
  },
};
