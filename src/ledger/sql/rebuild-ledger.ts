import type { LedgerSettings } from '../../config/ledger-settings';
import { applyOrderFacts } from './apply-order-facts';
import { statusDayWrites, summaryWrites } from './summary/summary-writes';
import { summaryChange, type SummaryChange } from '../summary/summary-change';
import type { Recomputed } from '../projection/order-changes';
import type { OrderRecord } from '../fold/order-record';
import { eventDaysOf } from '../summary/order-bookings';
import { all, dialect, lastTrip, pageEnd, type Procedure } from '../../store/procedures/procedure';

export interface RebuildPage {
  orders: number;
  changed: number;
  /** The order_id the next page starts after; null after the last order. */
  next: number | null;
}

type OrderRow = { order_id: number | string; mall_id: string; shop_order_no: string };

/**
 * `noti-receiver ledger rebuild`, one page of orders per write transaction (so it runs beside a
 * serving receiver: write transactions run one at a time, and no order changes under a page):
 * each order replayed from its stored facts (never from its fold checkpoint, which it writes
 * again), the records that come out different written with
 * their events, and counted, and every order booked in the day's money. On a consistent store none changes. Pages follow order_id (the
 * table's own key): an order first seen during the rebuild comes last.
 */
export function* rebuildLedger(after: number | null, limit: number, now: string, settings: LedgerSettings): Procedure<RebuildPage> {
  const rows = after === null
    ? yield* all<OrderRow>('SELECT order_id, mall_id, shop_order_no FROM ledger_orders ORDER BY order_id LIMIT ?', limit)
    : yield* all<OrderRow>('SELECT order_id, mall_id, shop_order_no FROM ledger_orders WHERE order_id > ? ORDER BY order_id LIMIT ?', after, limit);
  const orders = rows.map((row) => ({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }));
  const results = yield* applyOrderFacts([], { now, settings }, orders, true);
  // The day's money moves with the changed records, by what they replace. An unchanged order the
  // totals do not count (projected before the summary existed, or its count forgotten) is added
  // whole, and its header then says it is counted; every order is listed again on the days of its
  // events, which adds nothing where it is listed.
  const recorded = results.filter((r): r is Recomputed & { record: OrderRecord } => r.record !== null);
  const isUncounted = (r: Recomputed) => !r.changed && r.summaryDay === null;
  const uncounted = recorded.filter(isUncounted).map((r) => summaryChange(r.order, r.record, null, r.eventTimes(), null));
  const listed = recorded.filter((r) => !isUncounted(r)).map((r): SummaryChange => ({ order: r.order, deltas: [], statusDay: '', gainedDays: eventDaysOf(r.eventTimes()) }));
  const sql = yield* dialect();
  yield* lastTrip(...summaryWrites([...uncounted, ...listed], sql), ...statusDayWrites(uncounted, sql));
  return { orders: orders.length, changed: results.filter((r) => r.changed).length, next: pageEnd(rows, limit, (row) => row.order_id) };
}
