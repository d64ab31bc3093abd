import { cancelClaim } from '../../../ledger/fold/payment-left';
import type { CancelRefusal } from '../../command-types';
import { lockPayment, refusalOf } from './payment-headroom';
import { get, run, type Procedure } from '../procedure';

/**
 * An operator's deliberate retry, with a fresh attempt budget and the same request (same key,
 * same cancelReqDate and msgAuthValue). A failed net-cancel is net-cancelled again; an approval
 * that was answered is never touched. A failed cancel counts against its payment again once
 * retried, so it is retried only while it still fits in what is left (checked in this transaction,
 * as a new cancel is): else the refusal, and it stays failed.
 */
export function* retryFailedCommand(shopTransactionId: string, now: number, at: string): Procedure<boolean | CancelRefusal> {
  const failedCancel = yield* get<{ kind: string; request_json: string }>(
    "SELECT kind, request_json FROM commands WHERE shop_transaction_id = ? AND state = 'failed'", shopTransactionId,
  );
  const claim = failedCancel ? cancelClaim(failedCancel.kind, JSON.parse(failedCancel.request_json) as Record<string, unknown>) : null;
  if (claim !== null) {
    yield* lockPayment(claim.pgCno);
    const refusal = yield* refusalOf(claim);
    if (refusal !== null) return refusal;
  }
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
