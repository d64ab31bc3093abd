import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry } from 'prom-client';
import { createAdminApp } from './admin/admin-app';
import { resolveAdminToken, type AdminToken } from './console/admin-token';
import { simulatorKey } from './notifications/simulator-mark';
import { createBoundedServer } from './http/bounded-server';
import { closeServer } from './http/close-server';
import { loadDotEnv } from './config/dotenv';
import { ConfigError, loadConfig, type Config } from './config/env';
import { ledgerSettingsOf } from './config/ledger-env';
import { startIngestThread, type IngestThread } from './ingest/ingest-thread';
import { createLogger, type Logger } from './observability/logger';
import { createMetrics } from './observability/metrics';
import { registerBacklogGauges } from './store/backlog-gauges';
import { registerRelayGauge } from './relay/relay-gauge';
import { openPublisher } from './publishers/open-publisher';
import { startRelay } from './relay/relay';
import { openStores } from './ledger/projector/open-stores';
import { StoreUnavailable } from './store/store';
import { startOperatorSide, type OperatorSide } from './service/operator-side';
import { startTracing } from './tracing/tracing';
import { storeLocation } from './store/store-location';
import { lowerThisThread } from './thread-priority';

/**
 * Reads the environment, opens the store and the queue, then starts what ROLE asks for: the
 * gateway's listener on a thread of its own and the relay (all, ingest), the operator's side
 * (all, operator: console, internal API, ledger projector, alerts, exports), and the admin
 * listener's probes and metrics in every role.
 */
async function main(): Promise<void> {
  let config: Config;
  let adminToken: AdminToken;
  try {
    loadDotEnv();
    config = loadConfig();
    adminToken = resolveAdminToken(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`payment-noti-receiver: ${error.message}\n`);
    process.exit(1);
  }
  const runsIngest = config.ROLE !== 'operator';
  const runsOperator = config.ROLE !== 'ingest';
  const logger = createLogger({ level: config.LOG_LEVEL });
  // Off unless the OTEL_* variables name an exporter or an endpoint; null then, and nothing is traced.
  const tracing = startTracing(config);
  if (tracing) logger.info('tracing on: exporting OpenTelemetry spans', { exporter: config.OTEL_TRACES_EXPORTER ?? 'otlp', sampler: config.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on' });
  installProcessHandlers(logger);

  const metrics = createMetrics();
  const stores = await openStores(config.DATABASE_URL, {
    ledger: ledgerSettingsOf(config),
    // The ledger is the operator's side: an ingest replica neither projects nor sweeps it.
    projector: runsOperator,
    tracing,
    // Two processes on one SQLite file would both relay and forward every event twice.
    exclusive: true,
    // Errors no request is waiting on must still be seen; one that stops acks is an error, not a warning.
    onBackgroundError: (error) =>
      error instanceof StoreUnavailable
        ? logger.error('store cannot commit acks', { error: error.message })
        : logger.warn('store background error', { error: error.message }),
    // Before it starts: a migration that rebuilds a large table keeps the receiver from listening for a while.
    onMigration: (migration) =>
      logger.info('applying database migration', { migration: migration.name, ...(migration.announce ? { note: migration.announce } : {}) }),
  });
  const { store, ledger } = stores;
  const publisher = await openPublisher({ url: config.QUEUE_URL, queueName: config.QUEUE_NAME, logger });
  const relay = runsIngest ? startRelay({ store, publisher, logger, metrics, maxAttempts: config.RELAY_MAX_ATTEMPTS, tracing }) : null;
  registerBacklogGauges(metrics, store);
  if (relay) registerRelayGauge(metrics, relay);
  const operator: OperatorSide | null = runsOperator ? await startOperatorSide({ config, stores, adminToken, logger, metrics, tracing }) : null;

  let shuttingDown = false;
  // The simulator signs with the API token, else the console's: a secret of this receiver's operators.
  const simulatorKeys = [config.secrets.apiToken, adminToken.value].filter((secret) => secret !== undefined).map(simulatorKey);
  const ingest: IngestThread | null = runsIngest
    ? await startIngestThread({
      simulatorKeys,
      writerPorts: stores.writerPorts,
      onLost: (reason) => {
        // Never a receiver that answers the console but not the gateway: the supervisor restarts it.
        logger.error('the gateway listener stopped; exiting', { reason });
        setTimeout(() => process.exit(1), 100).unref();
      },
    })
    : null;
  // Started before this: the gateway listener's thread and the store's writer keep the priority
  // the process started with. What this thread runs from now on (console, API, relay, alerts) and
  // the threads it starts later yield to them.
  if (ingest) lowerThisThread();
  // The notification listener's time-outs: a console form or a probe needs far less, and a slow client must not hold a socket.
  const admin = createBoundedServer(createAdminApp({
    store,
    publisher,
    relay,
    metrics,
    isShuttingDown: () => shuttingDown,
    console: operator?.consoleDeps ?? null,
    ledger: runsOperator ? ledger : null,
    storeLocation: storeLocation(config.DATABASE_URL).location,
    ingest: ingest && {
      health: () => ingest.health(),
      // The listener's thread counts its own notifications and acks: one /metrics shows both threads.
      render: async (own) => {
        const theirs = await ingest.metrics();
        return theirs ? AggregatorRegistry.aggregate([own, theirs]).metrics() : null;
      },
    },
  })).listen(
    config.ADMIN_PORT,
    config.ADMIN_HOST,
  );
  // Signal handlers before the "listening" line: a supervisor may stop the process as soon as it sees it.
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + 5_000);
    force.unref();
    // Stop accepting, let in-flight notifications commit and be acked, then drain the relay.
    await Promise.all([ingest?.drain(config.SHUTDOWN_TIMEOUT_MS), operator?.stop(config.SHUTDOWN_TIMEOUT_MS)]);
    // The projector's last batch commits first, so the relay drains its events too.
    await ledger.stop();
    await relay?.stop(config.SHUTDOWN_TIMEOUT_MS);
    await publisher.close().catch((error: Error) => logger.warn('publisher close failed', { error: error.message }));
    await store.close();
    await closeServer(admin, 1_000);
    // The spans of the last notifications and publishes, exported before the process goes.
    await tracing?.shutdown().catch((error: Error) => logger.warn('trace export at shutdown failed', { error: error.message }));
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Log rotation's signal; without a handler Node would exit on it.
  process.on('SIGHUP', () => void publisher.reopen?.().then(
    () => logger.info('queue destination reopened (SIGHUP)'),
    (error: Error) => logger.error('could not reopen the queue destination', { error: error.message }),
  ));

  await once(admin, 'listening');
  logger.info('listening', {
    role: config.ROLE,
    port: ingest?.port ?? null,
    adminPort: (admin.address() as AddressInfo).port,
    apiPort: operator?.internalApi.port ?? null,
    notifyPath: config.NOTIFY_PATH,
    gatewayEnv: config.GATEWAY_ENV,
    store: store.kind,
    queue: publisher.kind,
  });
  if (!operator) return;
  // Behind a proxy the listener's own address is not where people open the console.
  const consoleUrl = config.ADMIN_PUBLIC_URL
    ? `${config.ADMIN_PUBLIC_URL.origin}/console`
    : `http://${config.ADMIN_HOST.includes(':') ? `[${config.ADMIN_HOST}]` : config.ADMIN_HOST}:${(admin.address() as AddressInfo).port}/console`;
  if (adminToken.generated) {
    // Logged once and never stored: set ADMIN_TOKEN or ADMIN_TOKEN_FILE to keep one across restarts.
    logger.warn('operator console token generated; set ADMIN_TOKEN or ADMIN_TOKEN_FILE to choose one', { consoleUrl, consoleToken: adminToken.value });
  } else {
    logger.info('operator console ready', { consoleUrl });
  }
}

/**
 * A bug that escapes every handler leaves the process in an unknown state: log it and exit,
 * relying on ack-after-commit (nothing acked is lost) and the supervisor's restart.
 */
function installProcessHandlers(logger: Logger): void {
  const fatal = (kind: string) => (error: unknown) => {
    logger.error(`${kind}; exiting`, { error: (error as Error)?.stack ?? String(error) });
    setTimeout(() => process.exit(1), 100).unref();
  };
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled rejection'));
}

main().catch((error: Error) => {
  process.stderr.write(`payment-noti-receiver: could not start: ${error.message}\n`);
  process.exit(1);
});
