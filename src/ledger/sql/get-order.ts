import type { OrderKey } from '../fold/ledger-facts';
import type { OrderRecord } from '../fold/order-record';
import { recordColumns, storedOrderRecord, type StoredRecordRow } from './order-items';
import { all, dialect, get, type Procedure } from '../../store/procedures/procedure';

/** An order's record, or null when nothing is known of it. */
export function* getOrder(order: OrderKey): Procedure<OrderRecord | null> {
  const row = yield* get<StoredRecordRow>(
    `SELECT ${recordColumns(yield* dialect(), 'o')} FROM ledger_orders o WHERE o.mall_id = ? AND o.shop_order_no = ?`, order.mallId, order.shopOrderNo,
  );
  return row ? storedOrderRecord(row) : null;
}

/** The records of every mall's order with this number (the CLI names an order by its number alone). */
export function* findOrders(shopOrderNo: string, limit: number): Procedure<OrderRecord[]> {
  const rows = yield* all<StoredRecordRow>(
    `SELECT ${recordColumns(yield* dialect(), 'o')} FROM ledger_orders o WHERE o.shop_order_no = ? AND o.record_json IS NOT NULL ORDER BY o.mall_id LIMIT ?`, shopOrderNo, limit,
  );
  return rows.map((row) => storedOrderRecord(row)!);
}
