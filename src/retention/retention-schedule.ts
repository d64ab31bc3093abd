import type { Logger } from '../observability/logger';
import type { RetentionQueries } from '../store/store';
import { runRetention } from './run-retention';

const HOUR_MS = 60 * 60 * 1000;

export interface RetentionSchedule {
  /** The run in progress, if any (tests and shutdown wait for it). */
  idle(): Promise<void>;
  stop(): void;
}

/** At start, then hourly. A failed run is logged and tried again next hour: pruning is never urgent. */
export function startRetention(deps: {
  store: Pick<RetentionQueries, 'pruneExpired' | 'recordRetentionRun'>;
  days: number;
  logger: Logger;
  now?: () => Date;
  intervalMs?: number;
}): RetentionSchedule {
  const now = deps.now ?? (() => new Date());
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(async () => {
      try {
        const run = await runRetention(deps.store, { days: deps.days, now: now() });
        deps.logger.info('retention policy applied', { retentionDays: deps.days, ...run });
      } catch (error) {
        deps.logger.error('retention policy failed; trying again in an hour', { error: (error as Error).message });
      }
    });
  };
  tick();
  const timer = setInterval(tick, deps.intervalMs ?? HOUR_MS);
  timer.unref();
  return {
    idle: () => running,
    stop: () => clearInterval(timer),
  };
}
