import type { OrderRecord, OrderStatus } from '../../ledger/order-record';
import { all, pageEnd, type Param, type Procedure } from './procedure';

export interface OrderPage {
  orders: OrderRecord[];
  /** The order_id of the last order of a full page: the next page starts after it. */
  last: number | null;
}

export interface OrderFilter {
  status?: OrderStatus;
  /** A page's `last`: the next page starts after it, in the list's direction. */
  after?: number;
  limit: number;
  /** The orders first seen last come first. */
  newestFirst?: boolean;
  /** Only records last changed at or after `from`, and before `to` (ISO instants). */
  from?: string;
  to?: string;
}

/**
 * Records in the order their orders were first seen (order_id), or the reverse, optionally of one
 * status and last changed within a time range, a page after the order_id `after`. The status
 * index is (status, order_id) (migration 011): a new order appends to it instead of taking a
 * random leaf in the ack's commit, and a page is one range of it, read either way.
 */
export function* listOrders(filter: OrderFilter): Procedure<OrderPage> {
  const conditions = [filter.status === undefined ? 'status IS NOT NULL' : 'status = ?'];
  const params: Param[] = filter.status === undefined ? [] : [filter.status];
  if (filter.after !== undefined) {
    conditions.push(filter.newestFirst ? 'order_id < ?' : 'order_id > ?');
    params.push(filter.after);
  }
  if (filter.from !== undefined) {
    conditions.push('updated_at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    conditions.push('updated_at < ?');
    params.push(filter.to);
  }
  const rows = yield* all<{ order_id: number | string; record_json: string }>(
    `SELECT order_id, record_json FROM ledger_orders WHERE ${conditions.join(' AND ')} ORDER BY order_id${filter.newestFirst ? ' DESC' : ''} LIMIT ?`,
    ...params, filter.limit,
  );
  return { orders: rows.map((row) => JSON.parse(row.record_json) as OrderRecord), last: pageEnd(rows, filter.limit, (row) => row.order_id) };
}

/** How many orders have this status: one range of the status index (the `ledger_error` metric). */
export function* countOrdersWithStatus(status: OrderStatus): Procedure<number> {
  const [row] = yield* all<{ n: number | string }>('SELECT COUNT(*) AS n FROM ledger_orders WHERE status = ?', status);
  return Number(row?.n ?? 0);
}
