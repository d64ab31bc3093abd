import type { OrderRecord, OrderStatus } from '../fold/order-record';
import { recordColumns, storedOrderRecord, type StoredRecordRow } from './order-items';
import { all, dialect, pageEnd, type Param, type Procedure } from '../../store/procedures/procedure';

export interface OrderPage {
  orders: OrderRecord[];
  /** The order_id of the last order of a full page: the next page starts after it. */
  last: number | null;
}

export interface OrderListFilter {
  status?: OrderStatus;
  /** A page's `last`: the next page starts after it, in the list's direction. */
  after?: number;
  limit: number;
  /** The orders seen last first (an operator's "today"), instead of as they were first seen. */
  newestFirst?: boolean;
  /** The record's last change (`updatedAt`, an ISO instant) at or after `from` and before `to`. */
  from?: string;
  to?: string;
}

/** The conditions of a list or count of orders, shared so the counts beside a list count that list. */
function orderConditions(filter: Pick<OrderListFilter, 'status' | 'from' | 'to'>): { conditions: string[]; params: Param[] } {
  const conditions = [filter.status === undefined ? 'status IS NOT NULL' : 'status = ?'];
  const params: Param[] = filter.status === undefined ? [] : [filter.status];
  // updated_at is the record's ISO instant (toISOString: one width, UTC), so text order is time order.
  if (filter.from !== undefined) {
    conditions.push('updated_at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    conditions.push('updated_at < ?');
    params.push(filter.to);
  }
  return { conditions, params };
}

/**
 * Records in the order their orders were first seen (order_id), or newest first, optionally of
 * one status and last changed in a time range, a page after the order_id `after`. The status
 * index is (status, order_id) (migration 011): a new order appends to it instead of taking a
 * random leaf in the ack's commit, and a page is one range of it, read in either direction. A time
 * range is a filter over that walk (no index on the time: the projector's writes stay lean).
 */
export function* listOrders(filter: OrderListFilter): Procedure<OrderPage> {
  const { conditions, params } = orderConditions(filter);
  const direction = filter.newestFirst ? 'DESC' : 'ASC';
  if (filter.after !== undefined) {
    conditions.push(filter.newestFirst ? 'order_id < ?' : 'order_id > ?');
    params.push(filter.after);
  }
  const rows = yield* all<StoredRecordRow & { order_id: number | string }>(
    `SELECT o.order_id, ${recordColumns(yield* dialect(), 'o')} FROM ledger_orders o WHERE ${conditions.join(' AND ')} ORDER BY o.order_id ${direction} LIMIT ?`,
    ...params, filter.limit,
  );
  return { orders: rows.map((row) => storedOrderRecord(row)!), last: pageEnd(rows, filter.limit, (row) => row.order_id) };
}

/** How many orders have each status (last changed in the range, when one is given). */
export function* orderStatusCounts(filter: Pick<OrderListFilter, 'from' | 'to'>): Procedure<Partial<Record<OrderStatus, number>>> {
  const { conditions, params } = orderConditions(filter);
  const rows = yield* all<{ status: OrderStatus; n: number | string }>(
    `SELECT status, count(*) AS n FROM ledger_orders WHERE ${conditions.join(' AND ')} GROUP BY status`, ...params,
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

/** How many orders have this status: one range of the status index (the `ledger_error` metric). */
export function* countOrdersWithStatus(status: OrderStatus): Procedure<number> {
  const [row] = yield* all<{ n: number | string }>('SELECT COUNT(*) AS n FROM ledger_orders WHERE status = ?', status);
  return Number(row?.n ?? 0);
}
