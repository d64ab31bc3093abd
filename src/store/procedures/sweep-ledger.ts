import type { LedgerSettings } from '../../ledger/ledger-settings';
import { applyOrderFacts } from './apply-order-facts';
import { all, dialect, type Procedure } from './procedure';

/**
 * The grace-period sweep (SPEC 7.3): orders whose `sweep_at` has come are recomputed now, which
 * opens the `over_cancel` / `remaining_mismatch` that waited. On PostgreSQL each replica takes the
 * due rows it can lock and skips the ones another replica holds (a notification of that order, or
 * the other replica's sweep), so several replicas sweep together without waiting or doing one
 * order twice. Answers how many records changed.
 */
export function* sweepLedger(now: string, limit: number, settings: LedgerSettings): Procedure<number> {
  const skipLocked = (yield* dialect()) === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  const due = yield* all<{ mall_id: string; shop_order_no: string }>(
    `SELECT mall_id, shop_order_no FROM ledger_orders WHERE sweep_at <= ? ORDER BY sweep_at LIMIT ?${skipLocked}`,
    Date.parse(now), limit,
  );
  const orders = due.map((row) => ({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }));
  const results = yield* applyOrderFacts([], { now, settings }, orders);
  return results.filter((result) => result.changed).length;
}
