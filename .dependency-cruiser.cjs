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
    path: '^src/(main\\.ts|app\\.ts|ingest/|service/|cli/|sandbox/|admin/|console/|api/|simulator/|contract/)',
  },
  {
    name: 'flows',
    what: 'the inbound and outbound flows and the jobs that follow the store',
    path: '^src/(http|relay|commands|ledger/projector|reconciliation/import|retention|operator|exports|alerts)/',
  },
  {
    name: 'store',
    what: 'the store and the queues: I/O adapters behind one interface each',
    path: '^src/(store|publishers|ledger/sql|reconciliation/sql)/',
  },
  {
    name: 'domain',
    what: 'the pure domain: notifications, the ledger fold, the gateway client',
    path: '^src/(ledger/(fold|projection|summary)|reconciliation/(file|matching)|notifications|gateway)/',
  },
  {
    name: 'ground',
    what: 'tracing core, logging, metrics core, config parsing, money formatting, small shared helpers',
    path: '^src/(tracing|observability|config|money)/|^src/(?!main\\.ts$|app\\.ts$)[^/]+\\.ts$',
  },
];

/**
 * Upward imports kept on purpose, each with its reason. A new one needs a line here and a comment
 * at the import saying why.
 */
const allowedUpward = [
  {
    file: 'src/observability/metrics.ts',
    imports: 'src/notifications/event-types.ts',
    why: "the notification counter's label is closed over the gateway's notiTypes, so no body can add a series",
  },
];

const exactly = (path) => `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

const pathOfLayersAbove = (index) =>
  layers
    .slice(0, index)
    .map((layer) => `(${layer.path})`)
    .join('|');

const upward = layers.slice(1).flatMap((layer, offset) => {
  const rule = (name, from, to) => ({
    name,
    comment: `${layer.what} (layer "${layer.name}") must not import from a layer above it`,
    severity: 'error',
    from,
    to: { path: pathOfLayersAbove(offset + 1), ...to },
  });
  const exceptions = allowedUpward.filter((exception) => new RegExp(layer.path).test(exception.file));
  return [
    rule(`no-upward-from-${layer.name}`, { path: layer.path, pathNot: exceptions.map((exception) => exactly(exception.file)) }, {}),
    // A file with a kept upward import may import that one module above it, and nothing else.
    ...exceptions.map((exception) =>
      rule(`no-upward-from-${layer.name}`, { path: exactly(exception.file) }, { pathNot: exactly(exception.imports) })),
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'ledger-decisions-apart-from-sql',
      comment: "the ledger's fold, projection and day summary decide; sql/ only turns their rows into statements and projector/ runs them: a decision that reaches for SQL can no longer be tested without a database",
      severity: 'error',
      from: { path: '^src/ledger/(fold|projection|summary)/' },
      to: { path: '^src/(ledger/(sql|projector)|store|publishers)/' },
    },
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
          '^src/ingest/ingest-worker\\.ts$',
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
