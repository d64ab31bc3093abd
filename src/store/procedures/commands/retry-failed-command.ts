import { run, type Procedure } from '../procedure';

/**
 * An operator's deliberate retry, with a fresh attempt budget and the same request (same key,
 * same cancelReqDate and msgAuthValue). A failed net-cancel is net-cancelled again; an approval
 * that was answered is never touched.
 */
export function* retryFailedCommand(shopTransactionId: string, now: number, at: string): Procedure<boolean> {
  const failed = yield* run(
    `UPDATE commands SET state = 'pending', budget_start = attempts, next_attempt_at = ?, updated_at = ?, locked_by = NULL, locked_until = NULL
     WHERE shop_transaction_id = ? AND state = 'failed'`,
    now, at, shopTransactionId,
  );
  if (failed.changes > 0) return true;
  // The net-cancel budget excludes the approval itself (see netCancelPolicy), hence attempts - 1.
  const netCancel = yield* run(
    `UPDATE commands SET state = 'net_cancelling', budget_start = attempts - 1, next_attempt_at = ?, updated_at = ?, locked_by = NULL, locked_until = NULL
     WHERE shop_transaction_id = ? AND state = 'net_cancel_failed'`,
    now, at, shopTransactionId,
  );
  return netCancel.changes > 0;
}
