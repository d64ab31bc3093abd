import type { OrderKey } from '../fold/ledger-facts';
import type { OrderRecord } from '../fold/order-record';
import { all, get, type Procedure } from '../../store/procedures/procedure';

/** An order's record, or null when nothing is known of it. */
export function* getOrder(order: OrderKey): Procedure<OrderRecord | null> {
  const row = yield* get<{ record_json: string | null }>(
    'SELECT record_json FROM ledger_orders WHERE mall_id = ? AND shop_order_no = ?', order.mallId, order.shopOrderNo,
  );
  return row?.record_json ? (JSON.parse(row.record_json) as OrderRecord) : null;
}

/** The records of every mall's order with this number (the CLI names an order by its number alone). */
export function* findOrders(shopOrderNo: string, limit: number): Procedure<OrderRecord[]> {
  const rows = yield* all<{ record_json: string }>(
    'SELECT record_json FROM ledger_orders WHERE shop_order_no = ? AND record_json IS NOT NULL ORDER BY mall_id LIMIT ?', shopOrderNo, limit,
  );
  return rows.map((row) => JSON.parse(row.record_json) as OrderRecord);
}
