import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/env';
import type { CommandDeps } from '../commands/command-deps';
import { startCommandWorker, type CommandWorker } from '../commands/command-worker';
import { createGatewayClient } from '../gateway/gateway-client';
import { createAttemptsInFlight } from '../commands/attempts-in-flight';
import { createBoundedServer } from '../http/bounded-server';
import { closeServer } from '../http/close-server';
import type { ListenerTimeouts } from '../http/listener-timeouts';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import { registerCommandGauges } from '../commands/command-gauges';
import type { CommandStore } from '../store/command-store';
import type { LedgerStore } from '../ledger/projector/ledger-store';
import { createApiApp } from './api-app';
import { readListOffLoop } from '../reconciliation/import/read-off-loop';
import type { ReconciliationStore } from '../reconciliation/import/reconciliation-store';
import type { Tracing } from '../tracing/tracing';

export interface InternalApi {
  /** Null when the API is off (no token); the worker runs either way. */
  port: number | null;
  worker: CommandWorker;
  /** What every command is sent with (the console's Cancel uses the same). */
  commandDeps: CommandDeps;
  stop(timeoutMs: number): Promise<void>;
}

export interface InternalApiOptions {
  config: Config;
  commands: CommandStore;
  ledger?: LedgerStore;
  /** With `ledger`: the gateway's lists (imports and the day's reconciliation). */
  reconciliation?: ReconciliationStore;
  storeKind: 'sqlite' | 'postgres';
  logger: Logger;
  metrics: Metrics;
  /** Null or absent: tracing off. */
  tracing?: Tracing | null;
  /** The listener's time-outs; tests shorten them. */
  timeouts?: ListenerTimeouts;
}

export function commandDeps(options: InternalApiOptions): CommandDeps {
  const { config, commands, logger, metrics } = options;
  return {
    tracing: options.tracing ?? null,
    store: commands,
    gateway: createGatewayClient({
      baseUrls: {
        GATEWAY_WALLET_A_URL: config.GATEWAY_WALLET_A_URL,
        GATEWAY_WALLET_B_URL: config.GATEWAY_WALLET_B_URL,
        GATEWAY_VAN_URL: config.GATEWAY_VAN_URL,
      },
      timeoutMs: config.GATEWAY_TIMEOUT_MS,
    }),
    keys: config.secrets,
    settings: {
      timeoutMs: config.GATEWAY_TIMEOUT_MS,
      retryBaseMs: config.GATEWAY_RETRY_BASE_MS,
      maxAttempts: config.GATEWAY_MAX_ATTEMPTS,
      msgAuthEncoding: config.MSG_AUTH_ENCODING,
      publicNotifyUrl: config.PUBLIC_NOTIFY_URL,
    },
    logger,
    metrics,
    owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    now: () => new Date(),
    inFlight: createAttemptsInFlight(logger),
    ...(options.ledger ? { ledgerCaughtUp: () => options.ledger!.caughtUp() } : {}),
  };
}

/**
 * The command worker (always: commands stored before a restart must be resent or
 * net-cancelled even with the API off) and, when a token is set, the internal API listener.
 */
export async function startInternalApi(options: InternalApiOptions): Promise<InternalApi> {
  const { config, commands, logger, metrics } = options;
  const deps = commandDeps(options);
  registerCommandGauges(metrics, commands, config.COMMAND_PENDING_ALERT_MS);
  // One SQLite file has one process: every lease left is from a process that died.
  if (options.storeKind === 'sqlite') {
    const released = await commands.releaseAllLeases();
    if (released > 0) logger.warn('took over commands leased by a previous process', { count: released });
  }
  const worker = startCommandWorker(deps, { pollMs: Math.min(1_000, config.GATEWAY_RETRY_BASE_MS) });
  deps.wakeWorker = () => worker.wake();

  const token = config.secrets.apiToken;
  if (!token) {
    logger.info('internal API off: set API_TOKEN or API_TOKEN_FILE to enable it');
    return { port: null, worker, commandDeps: deps, stop: (timeoutMs) => worker.stop(timeoutMs) };
  }
  const reconciliation = options.ledger && options.reconciliation ? { store: options.reconciliation, ledger: options.ledger, read: readListOffLoop } : undefined;
  const app = createApiApp({ commands: deps, apiToken: token, ledger: options.ledger, ...(reconciliation && { reconciliation }), defaultCurrency: config.LEDGER_DEFAULT_CURRENCY, mallIds: config.MALL_IDS, queue: { url: config.QUEUE_URL, name: config.QUEUE_NAME } });
  // The request time-out bounds receiving a request, not answering it: a POST still waits up to GATEWAY_TIMEOUT_MS for the gateway.
  const server = createBoundedServer(app, options.timeouts).listen(config.API_PORT, config.API_HOST);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    worker,
    commandDeps: deps,
    async stop(timeoutMs) {
      await closeServer(server, timeoutMs);
      await deps.inFlight.settled(timeoutMs);
      await worker.stop(timeoutMs);
    },
  };
}
