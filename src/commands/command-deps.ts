import type { GatewayClient } from '../gateway/gateway-client';
import type { AttemptsInFlight } from './attempts-in-flight';
import type { GatewayKeys, MsgAuthEncoding } from '../gateway/msg-auth';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { CommandStore } from '../store/command-store';
import type { Context } from '@opentelemetry/api';
import type { Tracing } from '../tracing/tracing';

export interface CommandSettings {
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  msgAuthEncoding: MsgAuthEncoding;
  publicNotifyUrl: string | undefined;
}

/** Everything a use case needs, passed in: no module-level state, and tests inject the clock. */
export interface CommandDeps {
  store: CommandStore;
  gateway: GatewayClient;
  keys: GatewayKeys;
  settings: CommandSettings;
  logger: Logger;
  metrics: Metrics;
  /** This process's name on a lease. */
  owner: string;
  now: () => Date;
  random?: () => number;
  /** Null or absent: tracing off, and a gateway call makes no span. */
  tracing?: Tracing | null;
  /**
   * With tracing on, the internal API request's span, as a context: the command stores it and its
   * first gateway call is its child. Passed explicitly (the service registers no context manager,
   * whose async hooks would tax every promise of the acks); absent for the worker's resends.
   */
  traceParent?: Context;
  /** First attempts still running after their POST answered. */
  inFlight: AttemptsInFlight;
  /** Tells the worker a command is due now (an approval in doubt needs its net-cancel at once). */
  wakeWorker?: () => void;
  /**
   * Resolves once the ledger has applied every input stored before the call (LedgerCatchingUp
   * after its wait); absent without the ledger. A cancel waits for it, so what is left of its
   * payment is computed from every notification received before the cancel, not read behind.
   */
  ledgerCaughtUp?: () => Promise<void>;
}

/** Longer than one attempt can take, so a live owner never loses a lease mid-attempt. */
export const leaseMs = (settings: CommandSettings): number => settings.timeoutMs + 10_000;
