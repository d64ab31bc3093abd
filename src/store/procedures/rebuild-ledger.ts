import type { OrderKey } from '../../ledger/ledger-facts';
import type { LedgerSettings } from '../../ledger/ledger-settings';
import { applyOrderFacts } from './apply-order-facts';
import { all, type Procedure } from './procedure';

export interface RebuildPage {
  orders: number;
  changed: number;
  /** Where the next page starts; null after the last order. */
  next: OrderKey | null;
}

/**
 * `noti-receiver ledger rebuild`, one page of orders per transaction: each order recomputed from
 * its stored facts under its lock (so it runs beside a serving receiver), the records that come
 * out different written with their events, and counted. On a consistent store none changes.
 */
export function* rebuildLedger(after: OrderKey | null, limit: number, now: string, settings: LedgerSettings): Procedure<RebuildPage> {
  const rows = after === null
    ? yield* all<{ mall_id: string; shop_order_no: string }>('SELECT mall_id, shop_order_no FROM ledger_orders ORDER BY mall_id, shop_order_no LIMIT ?', limit)
    : yield* all<{ mall_id: string; shop_order_no: string }>(
      'SELECT mall_id, shop_order_no FROM ledger_orders WHERE (mall_id, shop_order_no) > (?, ?) ORDER BY mall_id, shop_order_no LIMIT ?',
      after.mallId, after.shopOrderNo, limit,
    );
  const orders = rows.map((row) => ({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }));
  const results = yield* applyOrderFacts([], { now, settings }, orders);
  return { orders: orders.length, changed: results.filter((r) => r.changed).length, next: orders.length < limit ? null : orders.at(-1)! };
}
