import type { GatewayClient } from '../gateway/gateway-client';
import type { AttemptsInFlight } from './attempts-in-flight';
import type { GatewayKeys, MsgAuthEncoding } from '../gateway/msg-auth';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { CommandStore } from '../store/command-store';

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
  /** First attempts still running after their POST answered. */
  inFlight: AttemptsInFlight;
  /** Tells the worker a command is due now (an approval in doubt needs its net-cancel at once). */
  wakeWorker?: () => void;
}

/** Longer than one attempt can take, so a live owner never loses a lease mid-attempt. */
export const leaseMs = (settings: CommandSettings): number => settings.timeoutMs + 10_000;
