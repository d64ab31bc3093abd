import { startConfiguredAlerts } from '../alerts/alerts-from-config';
import { startInternalApi, type InternalApi } from '../api/start-internal-api';
import type { AdminToken } from '../console/admin-token';
import type { ConsoleDeps } from '../console/console-deps';
import { startSessionPrune } from '../console/session-prune-schedule';
import { startUploadPrune } from '../console/upload-prune-schedule';
import { importGatewayFileWith } from '../console/import-gateway-file';
import { createSessions } from '../console/sessions';
import type { Config } from '../config/env';
import { remindBackfill } from '../ledger/projector/backfill-reminder';
import { registerLedgerGauge } from '../ledger/projector/ledger-gauges';
import { startLedgerSweep } from '../ledger/projector/ledger-sweep-schedule';
import type { Stores } from '../ledger/projector/open-stores';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import { startRetention } from '../retention/retention-schedule';
import type { Tracing } from '../tracing/tracing';

export interface OperatorSide {
  consoleDeps: ConsoleDeps;
  internalApi: InternalApi;
  /** Stops the API (letting calls in flight finish, at most `timeoutMs`) and every schedule. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * What an operator, an accountant or an integration uses (ROLE=all or operator): the internal API,
 * the console's sessions, retention, the ledger's sweep and gauge, alerts. Never the gateway's
 * listener, which runs on a thread (or in a process) of its own.
 */
export async function startOperatorSide(deps: {
  config: Config;
  stores: Stores;
  adminToken: AdminToken;
  logger: Logger;
  metrics: Metrics;
  tracing: Tracing | null;
}): Promise<OperatorSide> {
  const { config, logger, metrics, tracing } = deps;
  const { store, commands, ledger, reconciliation, kind } = deps.stores;
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
  const internalApi = await startInternalApi({ config, commands, ledger, reconciliation, storeKind: kind, logger, metrics, tracing });
  // In the database: a restart or another replica keeps them.
  const sessions = createSessions({ store, now: () => Date.now(), idleMinutes: config.ADMIN_SESSION_IDLE_MINUTES, bootstrapToken: deps.adminToken.value });
  const sessionPrune = startSessionPrune({ sessions, logger });
  const uploadPrune = startUploadPrune({ reconciliation, logger });
  const consoleDeps: ConsoleDeps = {
    store, commands, ledger, reconciliation, config, logger, adminToken: deps.adminToken.value, sessions, now: () => new Date(), gatewayCommands: internalApi.commandDeps,
    importGatewayFile: importGatewayFileWith({ reconciliation, ledger }),
  };
  return {
    consoleDeps,
    internalApi,
    async stop(timeoutMs) {
      await internalApi.stop(timeoutMs);
      retention.stop();
      ledgerSweep.stop();
      sessionPrune.stop();
      uploadPrune.stop();
      await alerts?.stop();
      await retention.idle();
      await ledgerSweep.idle();
    },
  };
}
