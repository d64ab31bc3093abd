import { CANCEL_KINDS, paymentLeft, cancelClaim, type CancelClaim } from '../../../ledger/fold/payment-left';
import type { CancelRefusal, CommandState, RecordedCancel } from '../../command-types';
import { getOrder } from '../../../ledger/sql/get-order';
import { all, dialect, get, placeholders, type Procedure } from '../procedure';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The cancels recorded for a payment that the gateway has not refused for good, with what each
 * asks and the cancelPgCno its answer named: from the commands themselves, so a cancel counts
 * from the moment it is recorded, not once its first attempt has finished.
 */
export function* openCancels(pgCno: string): Procedure<RecordedCancel[]> {
  const rows = yield* all<{ shop_transaction_id: string; kind: string; state: string; request_json: string; response_json: string | null }>(
    `SELECT shop_transaction_id, kind, state, request_json, response_json FROM commands
     WHERE pg_cno = ? AND kind IN (${placeholders(CANCEL_KINDS.length)}) AND state <> 'failed'
     ORDER BY created_at, shop_transaction_id`,
    pgCno, ...CANCEL_KINDS,
  );
  return rows.map((row) => {
    const response = row.response_json === null ? null : (JSON.parse(row.response_json) as Record<string, unknown>);
    return {
      shopTransactionId: row.shop_transaction_id,
      state: row.state as CommandState,
      amount: cancelClaim(row.kind, JSON.parse(row.request_json) as Record<string, unknown>)?.amount ?? null,
      cancelPgCno: text(response?.cancelPgCno),
    };
  });
}

/**
 * What is left to cancel of a payment (minor units): the ledger's record of the order its
 * notifications named, less the cancels still open. Null when the ledger knows no payment of that
 * pgCno (no notification of it received, or the ledger off): there is nothing to measure against.
 */
function* paymentHeadroom(pgCno: string): Procedure<number | null> {
  // The first stored names the order that holds the payment: a later notification naming another
  // order for the same pgCno is a conflicting one, whose order holds no payment from it.
  const row = yield* get<{ mall_id: string; shop_order_no: string }>(
    'SELECT mall_id, shop_order_no FROM inbox WHERE pg_cno = ? AND shop_order_no IS NOT NULL ORDER BY seq LIMIT 1', pgCno,
  );
  if (!row) return null;
  const order = yield* getOrder({ mallId: row.mall_id, shopOrderNo: row.shop_order_no });
  if (order === null) return null;
  return paymentLeft(order, pgCno, yield* openCancels(pgCno));
}

/**
 * Makes the caller's transaction the only one deciding about this payment's cancels until it
 * ends. SQLite's one writer runs write transactions one at a time; on PostgreSQL a transaction
 * lock on the payment makes replicas take turns (write transactions also begin with the
 * outbox-order lock, but this rule must not rest on it). The one-bigint key space never meets
 * the two-int4 keys of advisory-locks.ts.
 */
export function* lockPayment(pgCno: string): Procedure<void> {
  if ((yield* dialect()) !== 'postgres') return;
  yield* get("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/cancel/' || ?, 0))", pgCno);
}

/** Why `claim` does not fit in what is left of its payment, or null when it fits (or the ledger knows no such payment). */
export function* refusalOf(claim: CancelClaim): Procedure<CancelRefusal | null> {
  const left = yield* paymentHeadroom(claim.pgCno);
  if (left === null || (claim.amount === null ? left > 0 : claim.amount <= left)) return null;
  return { pgCno: claim.pgCno, amount: claim.amount, left };
}
