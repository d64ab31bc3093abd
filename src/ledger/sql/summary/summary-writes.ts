import type { OrderKey } from '../../fold/ledger-facts';
import type { OrderRecord } from '../../fold/order-record';
import { bookingsOf, eventDaysOf, statusBookingOf, type Booking, type StatusBooking } from '../../summary/order-bookings';
import { storedKind } from './stored-kind';
import { changes, chunks, columnArrays, ladderChunks, sqlBySize, valueRows, type Dialect, type Param, type Statement } from '../../../store/procedures/procedure';

/** An order whose record the ledger writes, with what its new record books. */
export interface SummaryChange {
  order: OrderKey;
  bookings: Booking[];
  status: StatusBooking;
  /** The days it has an event on (`eventDaysOf`): the day page's, never in the totals. */
  eventDays: string[];
}

/**
 * The summary's side of a record the ledger writes (`previous`: the record stored before it, if
 * any; `eventTimes`: the own times of the order's notifications).
 */
export function summaryChange(order: OrderKey, record: OrderRecord, previous: OrderRecord | null, eventTimes: readonly string[]): SummaryChange {
  return { order, bookings: bookingsOf(record), status: statusBookingOf(record, previous), eventDays: eventDaysOf(eventTimes) };
}

/** The kind of a `summary_bookings` row that lists an order on a day it has an event on; no total reads it. */
const EVENT_DAY = 'event';

const ADD = `ON CONFLICT (day, mall_id, currency, kind, method) DO UPDATE
    SET count = summary_daily.count + excluded.count, amount = summary_daily.amount + excluded.amount`;
const DAILY = 'INSERT INTO summary_daily (day, mall_id, currency, kind, method, count, amount)';
const ORDER_COLUMNS = ['mall_id', 'shop_order_no', 'day', 'status', 'currency'];
// The day a status change counts on: its own (`n.day`), but never before the day the status it
// leaves was counted from (`s.day`, NULL for an order counted before it was kept), so that the -1
// never lands on a day before its +1 and no day's count goes below zero.
const COUNTS_FROM = 'CASE WHEN s.day > n.day THEN s.day ELSE n.day END';

/**
 * The statements that move the orders' bookings in the daily totals: each order's stored bookings
 * taken out, its new ones put in, and a status change booked as -1 / +1 on its day (`COUNTS_FROM`). Only what the
 * database holds is taken out, so an order projected before the summary existed is simply added
 * (that is how `ledger rebuild` fills it), and writing the same bookings twice changes no total.
 * They read nothing first: they go in the ledger's own transaction, after its writes.
 */
export function summaryWrites(changed: readonly SummaryChange[], dialect: Dialect): Statement[] {
  if (changed.length === 0) return [];
  const orderRows = changed.map(({ order, status }): Param[] => [order.mallId, order.shopOrderNo, status.day, status.status, status.currency]);
  // SQLite: the changed orders first, each finding its rows by the table's key. Left to its
  // statistics, SQLite 3.53 took a summary table as the outer loop when they were taken while the
  // store was young (one row each: an `ANALYZE` of a new store, as the benches' seeds run), and
  // read it whole for every batch: a rebuild of 20,000 orders took 445 s against 91 s
  // for 10,000. `CROSS JOIN` is SQLite's way to fix the order; PostgreSQL has no such join with ON.
  const byOrder = dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const bookingRows = changed.flatMap(({ order, bookings, status, eventDays }) => [
    ...bookings.map((b): Param[] => [order.mallId, order.shopOrderNo, b.day, b.currency, storedKind(b.kind, b.simulated), b.method, b.count, b.amount]),
    ...eventDays.map((day): Param[] => [order.mallId, order.shopOrderNo, day, status.currency, EVENT_DAY, '', 1, 0]),
  ]);
  return [
    ...relation(orderRows, dialect).flatMap((n) => [
      // Out: what the orders booked before, and the status each was counted in when it changes.
      changes(`${DAILY}
        SELECT b.day, b.mall_id, b.currency, b.kind, b.method, -sum(b.count), -sum(b.amount)
        FROM ${n.sql} n ${byOrder} summary_bookings b ON b.mall_id = n.mall_id AND b.shop_order_no = n.shop_order_no
        WHERE b.kind <> '${EVENT_DAY}' GROUP BY b.day, b.mall_id, b.currency, b.kind, b.method ${ADD}`, ...n.params),
      changes(`DELETE FROM summary_bookings WHERE (mall_id, shop_order_no) IN (SELECT mall_id, shop_order_no FROM ${n.sql} n)`, ...n.params),
      changes(`${DAILY}
        SELECT ${COUNTS_FROM}, s.mall_id, s.currency, 'status', s.status, -count(*), 0
        FROM ${n.sql} n ${byOrder} summary_order_status s ON s.mall_id = n.mall_id AND s.shop_order_no = n.shop_order_no
        WHERE s.status <> n.status OR s.currency <> n.currency GROUP BY ${COUNTS_FROM}, s.mall_id, s.currency, s.status ${ADD}`, ...n.params),
      changes(`${DAILY}
        SELECT ${COUNTS_FROM}, n.mall_id, n.currency, 'status', n.status, count(*), 0
        FROM ${n.sql} n LEFT JOIN summary_order_status s ON s.mall_id = n.mall_id AND s.shop_order_no = n.shop_order_no
        WHERE n.mall_id IS NOT NULL AND (s.mall_id IS NULL OR s.status <> n.status OR s.currency <> n.currency)
        GROUP BY ${COUNTS_FROM}, n.mall_id, n.currency, n.status ${ADD}`, ...n.params),
      changes(`INSERT INTO summary_order_status (mall_id, shop_order_no, status, currency, day)
        SELECT mall_id, shop_order_no, status, currency, day FROM ${n.sql} n WHERE mall_id IS NOT NULL
        ON CONFLICT (mall_id, shop_order_no) DO UPDATE SET status = excluded.status, currency = excluded.currency,
          day = CASE WHEN summary_order_status.status = excluded.status AND summary_order_status.currency = excluded.currency THEN summary_order_status.day
            WHEN summary_order_status.day > excluded.day THEN summary_order_status.day ELSE excluded.day END`, ...n.params),
    ]),
    // In: the new bookings, per order and summed per day.
    ...rowsInto('INSERT INTO summary_bookings (mall_id, shop_order_no, day, currency, kind, method, count, amount)', ['text', 'text', 'text', 'text', 'text', 'text', 'bigint', 'bigint'], bookingRows, dialect, ''),
    ...rowsInto(DAILY, ['text', 'text', 'text', 'text', 'text', 'bigint', 'bigint'], dailyTotals(changed), dialect, ADD),
  ];
}

/** The new bookings summed per (day, mall, currency, kind, method): one row per key, as an upsert needs. */
function dailyTotals(changed: readonly SummaryChange[]): Param[][] {
  const totals = new Map<string, [string, string, string, string, string, number, number]>();
  for (const { order, bookings } of changed) {
    for (const b of bookings) {
      const kind = storedKind(b.kind, b.simulated);
      const key = [b.day, order.mallId, b.currency, kind, b.method].join('\u0000');
      const row = totals.get(key);
      if (row) {
        row[5] += b.count;
        row[6] += b.amount;
      } else totals.set(key, [b.day, order.mallId, b.currency, kind, b.method, b.count, b.amount]);
    }
  }
  return [...totals.values()];
}

/**
 * The changed orders as a subquery with ORDER_COLUMNS, in chunks SQLite's parameter limit takes
 * (a VALUES list its planner reads as constant rows, each order then found by its key; rows of
 * NULLs after them, which match no order, so a single order is a list too: SQLite plans a
 * one-row VALUES as a subquery it scans; bound as parameters, as many as fill the list to a power
 * of two, so that its five statements have a few texts, prepared once, not new ones at nearly
 * every ledger batch);
 * PostgreSQL from arrays, one text whatever the size.
 */
function relation(rows: readonly Param[][], dialect: Dialect): Array<{ sql: string; params: Param[] }> {
  if (dialect === 'postgres') {
    return [{ sql: `(SELECT * FROM unnest(${ORDER_COLUMNS.map(() => '?::text[]').join(', ')}) AS u (${ORDER_COLUMNS.join(', ')}))`, params: columnArrays(rows, ORDER_COLUMNS.length) }];
  }
  return chunks(rows, ORDER_COLUMNS.length, 1000).map((chunk) => {
    const size = 2 ** Math.ceil(Math.log2(chunk.length + 1));
    return { sql: VALUES_OF(size), params: [...chunk.flat(), ...new Array<Param>((size - chunk.length) * ORDER_COLUMNS.length).fill(null)] };
  });
}

const NAMED = ORDER_COLUMNS.map((column, i) => `column${i + 1} AS ${column}`).join(', ');
const VALUES_OF = sqlBySize((rows) => `(SELECT ${NAMED} FROM (VALUES ${valueRows(rows, ORDER_COLUMNS.length)}))`);

function rowsInto(insert: string, types: readonly string[], rows: readonly Param[][], dialect: Dialect, conflict: string): Statement[] {
  if (rows.length === 0) return [];
  if (dialect === 'postgres') {
    return [changes(`${insert} SELECT * FROM unnest(${types.map((t) => `?::${t}[]`).join(', ')}) ${conflict}`, ...columnArrays(rows, types.length))];
  }
  return ladderChunks(rows, types.length).map((chunk) =>
    changes(`${insert} VALUES ${chunk.map(() => `(${types.map(() => '?').join(', ')})`).join(', ')} ${conflict}`, ...chunk.flat()));
}
