import type { Logger } from '../observability/logger';
import type { ReconciliationStore } from '../reconciliation/import/reconciliation-store';

const HOUR_MS = 60 * 60 * 1000;

/**
 * A staged upload older than an hour is already not found; deleting it hourly keeps a portal file
 * nobody imported from lying in the database when no later upload prunes it. On several replicas
 * each prunes: the delete is idempotent, and one missed hour costs nothing.
 */
export function startUploadPrune(deps: { reconciliation: Pick<ReconciliationStore, 'pruneUploads'>; logger: Logger; now?: () => Date; intervalMs?: number }): { stop(): void } {
  const now = deps.now ?? (() => new Date());
  const tick = () => {
    deps.reconciliation.pruneUploads(now().toISOString()).then(
      (count) => { if (count > 0) deps.logger.info('unconfirmed console uploads deleted', { count }); },
      (error: Error) => deps.logger.warn('could not delete unconfirmed console uploads; trying again in an hour', { error: error.message }),
    );
  };
  tick();
  const timer = setInterval(tick, deps.intervalMs ?? HOUR_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
