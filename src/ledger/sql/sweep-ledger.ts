import type { LedgerSettings } from '../../config/ledger-settings';
import { applyOrderFacts } from './apply-order-facts';
import { all, type Procedure } from '../../store/procedures/procedure';

/**
 * The grace-period sweep: orders whose `sweep_at` has come are recomputed now, which
 * opens the `over_cancel` / `remaining_mismatch` that waited. Several replicas may sweep: their
 * write transactions run one at a time (the outbox-order lock, group-commit.ts), and a record
 * recomputed by one has its `sweep_at` moved, so the next finds it no longer due. Answers how many
 * records changed.
 */
export function* sweepLedger(now: string, limit: number, settings: LedgerSettings): Procedure<number> {
  const due = yield* all<{ mall_id: string; shop_order_no: string }>(
    `SELECT mall_id, shop_order_no FROM ledger_orders WHERE sweep_at <= ? ORDER BY sweep_at LIMIT ?`,
    Date.parse(now), limit,
  );
  const orders = due.map((row) => ({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }));
  const results = yield* applyOrderFacts([], { now, settings }, orders);
  return results.filter((result) => result.changed).length;
}
