/**
 * The layer table, kept by a rule rather than by memory (`npm run lint:deps`, part of `npm test`).
 * Each layer imports only from the layers below it; folders in one layer may import each other as
 * long as no cycle forms. docs/development.md draws the same table and says where a new
 * capability goes. Keep it coarse: a move inside a folder needs no change here.
 */

/** Top to bottom. A path belongs to the first layer whose pattern matches it. */
const layers = [
  {
    name: 'entry',
    what: 'entry points: processes, listeners and what only they show',
    path: '^src/(main\\.ts|app\\.ts|cli/|sandbox/|admin/|console/|api/|simulator/|contract/)',
  },
  {
    name: 'flows',
    what: 'the inbound and outbound flows and the jobs that follow the store',
    path: '^src/(http|relay|commands|ledger-projector|retention|operator)/',
  },
  {
    name: 'store',
    what: 'the store and the queues: I/O adapters behind one interface each',
    path: '^src/(store|publishers)/',
  },
  {
    name: 'domain',
    what: 'the pure domain: notifications, the ledger fold, the gateway client, money',
    path: '^src/(ledger|notifications|gateway|money)/',
  },
  {
    name: 'ground',
    what: 'tracing core, logging, metrics, config parsing, small shared helpers',
    path: '^src/(tracing|observability|config|shared)/|^src/(?!main\\.ts$|app\\.ts$)[^/]+\\.ts$',
  },
];

/**
 * Upward imports kept on purpose, each with its reason. A new one needs a line here and a comment
 * at the import saying why.
 */
const allowedUpward = [];

const pathOfLayersAbove = (index) =>
  layers
    .slice(0, index)
    .map((layer) => `(${layer.path})`)
    .join('|');

const upward = layers.slice(1).map((layer, offset) => ({
  name: `no-upward-from-${layer.name}`,
  comment: `${layer.what} (layer "${layer.name}") must not import from a layer above it`,
  severity: 'error',
  from: { path: layer.path, pathNot: allowedUpward.map((exception) => exception.from) },
  to: { path: pathOfLayersAbove(offset + 1) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-circular',
      comment: 'an import cycle ties modules into one unit nobody can read or test alone',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-test',
      comment: 'production code never imports test machinery',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'not-to-dev-dep',
      comment: 'the built service installs without dev dependencies',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-orphans',
      comment: 'a source file nothing imports is dead code, unless a process starts it by path',
      severity: 'error',
      from: {
        orphan: true,
        path: '^src/',
        pathNot: [
          '\\.d\\.ts$',
          '\\.md$',
          // Started by path: the service, the three CLIs and the SQLite worker threads.
          '^src/main\\.ts$',
          '^src/(cli/receiver-cli|simulator/simulate-cli|sandbox/sandbox-cli)\\.ts$',
          '^src/store/sqlite/[a-z-]+-worker\\.ts$',
        ],
      },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that does not resolve fails at run time',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/|^test/|^bench/|^node_modules/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: {
      dot: { collapsePattern: '^src/[^/]+/' },
      archi: { collapsePattern: '^src/[^/]+/' },
      text: { highlightFocused: true },
    },
  },
};
