import type { Logger } from '../observability/logger';
import type { Sessions } from './sessions';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Expired sessions are already refused by the query that finds them; deleting them hourly only
 * keeps the table from growing with every sign-in. On several replicas each prunes: the delete is
 * idempotent, and one missed hour costs nothing.
 */
export function startSessionPrune(deps: { sessions: Pick<Sessions, 'prune'>; logger: Logger; intervalMs?: number }): { stop(): void } {
  const tick = () => {
    deps.sessions.prune().then(
      (count) => { if (count > 0) deps.logger.info('expired console sessions deleted', { count }); },
      (error: Error) => deps.logger.warn('could not delete expired console sessions; trying again in an hour', { error: error.message }),
    );
  };
  tick();
  const timer = setInterval(tick, deps.intervalMs ?? HOUR_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
