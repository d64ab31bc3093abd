import type { Logger } from '../../observability/logger';
import type { LedgerStore } from './ledger-store';

/** Kinds that wait for the grace period open within 30 s after it has passed. */
const SWEEP_INTERVAL_MS = 15_000;

export interface LedgerSweepSchedule {
  /** The sweep in progress, if any (shutdown waits for it). */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * Every 15 s, every order whose grace period has passed is recomputed. Each replica sweeps: the
 * store skips the orders another replica is working on. A sweep that fills its batch goes on at
 * once; a failed one is logged and tried at the next tick (the orders wait in `sweep_at`).
 */
export function startLedgerSweep(deps: {
  ledger: Pick<LedgerStore, 'sweep'>;
  logger: Logger;
  now?: () => Date;
  intervalMs?: number;
  batch?: number;
}): LedgerSweepSchedule {
  const now = deps.now ?? (() => new Date());
  const batch = deps.batch ?? 100;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const sweep = async () => {
    try {
      let changed = 0;
      for (let round = 0; round < 100 && !stopped; round++) {
        const n = await deps.ledger.sweep(now().toISOString(), batch);
        changed += n;
        if (n < batch) break;
      }
      if (changed > 0) deps.logger.info('ledger sweep opened what waited for the grace period', { orders: changed });
    } catch (error) {
      deps.logger.warn('ledger sweep failed; trying again at the next tick', { error: (error as Error).message });
    }
  };
  const tick = () => {
    running = running.then(sweep);
  };
  const timer = setInterval(tick, deps.intervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();
  tick();
  return {
    idle: () => running,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
