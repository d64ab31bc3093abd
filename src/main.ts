import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createAdminApp } from './admin/admin-app';
import { createApp } from './app';
import { resolveAdminToken, type AdminToken } from './console/admin-token';
import { simulatorKey } from './notifications/simulator-mark';
import { startSessionPrune } from './console/session-prune-schedule';
import { createSessions } from './console/sessions';
import { createBoundedServer } from './http/bounded-server';
import { closeServer } from './http/close-server';
import { loadDotEnv } from './config/dotenv';
import { ConfigError, loadConfig, type Config } from './config/env';
import { ledgerSettingsOf } from './config/ledger-env';
import { remindBackfill } from './ledger-projector/backfill-reminder';
import { startLedgerSweep } from './ledger-projector/ledger-sweep-schedule';
import { createLogger, type Logger } from './observability/logger';
import { createMetrics } from './observability/metrics';
import { registerBacklogGauges } from './store/backlog-gauges';
import { registerLedgerGauge } from './ledger-projector/ledger-gauges';
import { registerRelayGauge } from './relay/relay-gauge';
import { openPublisher } from './publishers/open-publisher';
import { startRelay } from './relay/relay';
import { openStores } from './ledger-projector/open-stores';
import { StoreUnavailable } from './store/store';
import { startInternalApi, type InternalApi } from './api/start-internal-api';
import { startRetention } from './retention/retention-schedule';
import { startConfiguredAlerts } from './alerts/alerts-from-config';
import { startTracing } from './tracing/tracing';
import { storeLocation } from './store/store-location';

/** Reads the environment, opens the store and the queue, starts the relay and both listeners. */
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
  const logger = createLogger({ level: config.LOG_LEVEL });
  // Off unless the OTEL_* variables name an exporter or an endpoint; null then, and nothing is traced.
  const tracing = startTracing(config);
  if (tracing) logger.info('tracing on: exporting OpenTelemetry spans', { exporter: config.OTEL_TRACES_EXPORTER ?? 'otlp', sampler: config.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on' });
  installProcessHandlers(logger);

  const metrics = createMetrics();
  const { store, commands, ledger, kind } = await openStores(config.DATABASE_URL, {
    ledger: ledgerSettingsOf(config),
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
  const publisher = await openPublisher({ url: config.QUEUE_URL, queueName: config.QUEUE_NAME, logger });
  const relay = startRelay({ store, publisher, logger, metrics, maxAttempts: config.RELAY_MAX_ATTEMPTS, tracing });
  registerBacklogGauges(metrics, store);
  registerRelayGauge(metrics, relay);
  const retention = startRetention({ store, days: config.RETENTION_DAYS, logger });
  registerLedgerGauge(metrics, ledger);
  // One order's input the ledger could not apply stops that order alone: said loudly, counted by the metric.
  ledger.projector?.onBatch((batch) => {
    for (const error of batch.errors) logger.error('ledger could not apply an input; its order is ledger_error', { error });
  });
  ledger.projector?.onFailure((error) => logger.warn('ledger projector batch failed; trying again', { error: error.message }));
  const ledgerSweep = startLedgerSweep({ ledger, logger });
  // Told to people after the commits, from stored data, on its own timer: never on an ack's path.
  const alerts = startConfiguredAlerts({ config, store, logger, metrics });
  void remindBackfill({ ledger, logger });
  const internalApi: InternalApi = await startInternalApi({ config, commands, ledger, storeKind: kind, logger, metrics, tracing });

  let shuttingDown = false;
  // Its time-outs (20 s for the headers, 30 s for a request) are the listener's own: see createNotificationServer.
  // The simulator signs with the API token, else the console's: a secret of this receiver's operators.
  const simulatorKeys = [config.secrets.apiToken, adminToken.value].filter((secret) => secret !== undefined).map(simulatorKey);
  const server = createApp({ config, store, logger, metrics, tracing, simulatorKeys }).listen(config.PORT, config.HOST);
  const now = () => new Date();
  // In the database: a restart or another replica keeps them.
  const sessions = createSessions({ store, now: () => Date.now(), idleMinutes: config.ADMIN_SESSION_IDLE_MINUTES, bootstrapToken: adminToken.value });
  const sessionPrune = startSessionPrune({ sessions, logger });
  const consoleDeps = { store, commands, ledger, config, logger, adminToken: adminToken.value, sessions, now, gatewayCommands: internalApi.commandDeps };
  // The notification listener's time-outs: a console form or a probe needs far less, and a slow client must not hold a socket.
  const admin = createBoundedServer(createAdminApp({
    store,
    publisher,
    relay,
    metrics,
    isShuttingDown: () => shuttingDown,
    console: consoleDeps,
    ledger,
    storeLocation: storeLocation(config.DATABASE_URL).location,
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
    await Promise.all([closeServer(server, config.SHUTDOWN_TIMEOUT_MS), internalApi.stop(config.SHUTDOWN_TIMEOUT_MS)]);
    retention.stop();
    ledgerSweep.stop();
    sessionPrune.stop();
    await alerts?.stop();
    // The projector's last batch commits first, so the relay drains its events too.
    await ledger.stop();
    await relay.stop(config.SHUTDOWN_TIMEOUT_MS);
    await publisher.close().catch((error: Error) => logger.warn('publisher close failed', { error: error.message }));
    await retention.idle();
    await ledgerSweep.idle();
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

  await Promise.all([once(server, 'listening'), once(admin, 'listening')]);
  logger.info('listening', {
    port: (server.address() as AddressInfo).port,
    adminPort: (admin.address() as AddressInfo).port,
    apiPort: internalApi.port,
    notifyPath: config.NOTIFY_PATH,
    gatewayEnv: config.GATEWAY_ENV,
    store: store.kind,
    queue: publisher.kind,
  });
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
