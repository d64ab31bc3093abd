import type { OrderKey } from '../../ledger/ledger-facts';
import type { OrderRecord, OrderStatus } from '../../ledger/order-record';
import { all, type Param, type Procedure } from './procedure';

export interface OrderPage {
  orders: OrderRecord[];
  /** The last order of a full page: the next page starts after it. */
  last: OrderKey | null;
}

/** Records by mall and order number, optionally of one status, a page after `after`. */
export function* listOrders(filter: { status?: OrderStatus; after?: OrderKey; limit: number }): Procedure<OrderPage> {
  const conditions = [filter.status === undefined ? 'status IS NOT NULL' : 'status = ?'];
  const params: Param[] = filter.status === undefined ? [] : [filter.status];
  if (filter.after) {
    conditions.push('(mall_id, shop_order_no) > (?, ?)');
    params.push(filter.after.mallId, filter.after.shopOrderNo);
  }
  const rows = yield* all<{ mall_id: string; shop_order_no: string; record_json: string }>(
    `SELECT mall_id, shop_order_no, record_json FROM ledger_orders WHERE ${conditions.join(' AND ')}
     ORDER BY mall_id, shop_order_no LIMIT ?`,
    ...params, filter.limit,
  );
  const last = rows.length === filter.limit ? rows.at(-1)! : null;
  return { orders: rows.map((row) => JSON.parse(row.record_json) as OrderRecord), last: last && { mallId: last.mall_id, shopOrderNo: last.shop_order_no } };
}
