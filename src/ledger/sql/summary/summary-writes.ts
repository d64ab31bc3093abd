import type { SummaryChange } from '../../summary/summary-change';
import { batchDeltas, type SummaryDelta } from '../../summary/summary-delta';
import { storedKind } from './stored-kind';
import { kstDay } from '../../summary/kst-day';
import { changes, columnArrays, ladderChunks, type Dialect, type Param, type Statement } from '../../../store/procedures/procedure';

const DAILY = 'INSERT INTO summary_daily (day, mall_id, currency, kind, method, count, amount)';
const ADD = `ON CONFLICT (day, mall_id, currency, kind, method) DO UPDATE
    SET count = summary_daily.count + excluded.count, amount = summary_daily.amount + excluded.amount`;
const DAYS = 'INSERT INTO summary_order_days (day, mall_id, shop_order_no)';

/**
 * The statements that move the day's money by the batch's changes: one upsert of the daily totals,
 * each key once (`batchDeltas`), and the days orders gained, added to the day page's list. They
 * read nothing first: they go in the ledger's own transaction, after its writes.
 */
export function summaryWrites(changed: readonly SummaryChange[], dialect: Dialect, nowMs = Date.now()): Statement[] {
  if (changed.length === 0) return [];
  const totals = byStoredKey(batchDeltas(changed.map(({ order, deltas }) => ({ mallId: order.mallId, deltas }))));
  const days = changed.flatMap(({ order, gainedDays }) => gainedDays.map((day): Param[] => [day, order.mallId, order.shopOrderNo]));
  return [
    ...rowsInto(DAILY, ['text', 'text', 'text', 'text', 'text', 'bigint', 'bigint'], totals, dialect, ADD),
    ...adjustmentWrites(totals, dialect, nowMs),
    ...rowsInto(DAYS, ['text', 'text', 'text'], days, dialect, 'ON CONFLICT DO NOTHING'),
  ];
}

/** The real money's kinds: what an adjustment of a closed day books (counts of work, statuses and the simulator's sums move no money). */
const ADJUSTED_KINDS: ReadonlySet<string> = new Set(['payment', 'cancel', 'deposit', 'deposit_cancel', 'refund_failed', 'refund_failed_unknown']);
const CLOCK_MARGIN_MS = 3600_000;
const ADJUST = `ON CONFLICT (day, adjusts_day, mall_id, currency, kind, method) DO UPDATE
    SET count = summary_adjustments.count + excluded.count, amount = summary_adjustments.amount + excluded.amount`;
// Today in Korea by the database's clock, read when the statement runs: after the ledger's lock
// on PostgreSQL, so a close that committed before it is seen and a day is closed once it is over.
const TODAY = { sqlite: "strftime('%Y-%m-%d', 'now', '+9 hours')", postgres: "to_char((clock_timestamp() AT TIME ZONE 'UTC') + interval '9 hours', 'YYYY-MM-DD')" } as const;
const CLOSED = (v: { day: string; mall: string }) => `EXISTS (SELECT 1 FROM summary_closes c WHERE c.day = ${v.day} AND c.mall_id IN (${v.mall}, ''))`;

/**
 * The share of the batch's moves that lands on closed days, booked again as adjustments on today
 * naming the day each adjusts. The totals still move (they stay the sums over the records); a
 * closed day shows its kept figures, so what moved it since is shown once, on the day it arrived.
 * The decision is the statement's own, in the ledger's transaction, which a close takes too: an
 * input is either in a close's figures or booked as its adjustment, never both and never neither.
 */
function adjustmentWrites(totals: readonly Param[][], dialect: Dialect, nowMs: number): Statement[] {
  // A day is closed once it is over, so a row of today (most of a live batch's) can meet no close:
  // it is not sent. The clock that closes may run ahead of this one (another replica's): an hour of
  // it is allowed for, so around midnight today's rows are sent too.
  const couldBeClosed = kstDay(new Date(nowMs + CLOCK_MARGIN_MS).toISOString());
  const rows = totals.filter((row) => ADJUSTED_KINDS.has(row[3] as string) && (row[0] as string) < couldBeClosed);
  if (rows.length === 0) return [];
  const insert = 'INSERT INTO summary_adjustments (day, adjusts_day, mall_id, currency, kind, method, count, amount)';
  if (dialect === 'postgres') {
    return [changes(`${insert} SELECT ${TODAY.postgres}, u.* FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[])
      AS u (day, mall_id, currency, kind, method, count, amount) WHERE ${CLOSED({ day: 'u.day', mall: 'u.mall_id' })} ${ADJUST}`, ...columnArrays(rows, 7))];
  }
  return ladderChunks(rows, 7).map((chunk) => changes(`${insert} SELECT ${TODAY.sqlite}, v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7
    FROM (VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}) AS v WHERE ${CLOSED({ day: 'v.column1', mall: 'v.column2' })} ${ADJUST}`, ...chunk.flat()));
}

/**
 * The rows under the table's key: a simulated order's discrepancy counts are kept with the real
 * ones (`storedKind`), so two deltas can meet in one row, which one upsert may touch only once.
 */
function byStoredKey(deltas: ReadonlyArray<SummaryDelta & { mallId: string }>): Param[][] {
  const rows = new Map<string, [string, string, string, string, string, number, number]>();
  for (const d of deltas) {
    const kind = storedKind(d.kind, d.simulated);
    const key = [d.day, d.mallId, d.currency, kind, d.method].join('\u0000');
    const row = rows.get(key);
    if (row) {
      row[5] += d.count;
      row[6] += d.amount;
    } else rows.set(key, [d.day, d.mallId, d.currency, kind, d.method, d.count, d.amount]);
  }
  return [...rows.values()].filter((row) => row[5] !== 0 || row[6] !== 0);
}

/**
 * The header's status day of orders whose record is not written (a rebuild counting an order the
 * totals did not count): the record's own write carries it otherwise.
 */
export function statusDayWrites(changed: readonly SummaryChange[], dialect: Dialect): Statement[] {
  const rows = changed.map(({ order, statusDay }): Param[] => [order.mallId, order.shopOrderNo, statusDay]);
  if (rows.length === 0) return [];
  if (dialect === 'postgres') {
    return [changes(`UPDATE ledger_orders o SET summary_day = u.day FROM unnest(?::text[], ?::text[], ?::text[]) AS u (mall_id, shop_order_no, day)
      WHERE o.mall_id = u.mall_id AND o.shop_order_no = u.shop_order_no`, ...columnArrays(rows, 3))];
  }
  return rows.map(([mallId, shopOrderNo, day]) => changes('UPDATE ledger_orders SET summary_day = ? WHERE mall_id = ? AND shop_order_no = ?', day!, mallId!, shopOrderNo!));
}

function rowsInto(insert: string, types: readonly string[], rows: readonly Param[][], dialect: Dialect, conflict: string): Statement[] {
  if (rows.length === 0) return [];
  if (dialect === 'postgres') {
    return [changes(`${insert} SELECT * FROM unnest(${types.map((t) => `?::${t}[]`).join(', ')}) ${conflict}`, ...columnArrays(rows, types.length))];
  }
  return ladderChunks(rows, types.length).map((chunk) =>
    changes(`${insert} VALUES ${chunk.map(() => `(${types.map(() => '?').join(', ')})`).join(', ')} ${conflict}`, ...chunk.flat()));
}
