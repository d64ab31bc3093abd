import type { Logger } from '../../observability/logger';
import type { LedgerStore } from './ledger-store';

/** The warning's message, one line an operator can act on. */
export const BACKFILL_REMINDER = 'stored notifications have no payment-ledger facts yet (stored before the ledger existed): run noti-receiver ledger backfill once';

/**
 * At start, after an upgrade from a release without the ledger: until the backfill runs, the
 * orders of notifications stored before it are unknown to the ledger, and a cancel of such a
 * payment would open an over_cancel after the grace period. Said once, as a warning; a check that
 * fails is a warning too, never a reason not to serve.
 */
export async function remindBackfill(deps: { ledger: Pick<LedgerStore, 'backfillNeeded'>; logger: Logger }): Promise<void> {
  try {
    if (await deps.ledger.backfillNeeded()) deps.logger.warn(BACKFILL_REMINDER, { command: 'noti-receiver ledger backfill' });
  } catch (error) {
    deps.logger.warn('could not check whether the payment ledger needs a backfill', { error: (error as Error).message });
  }
}
