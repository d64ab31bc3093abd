import { summaryDays, type SummaryDay, type SummaryRow } from '../../summary/summary-days';
import type { OrderRecord } from '../../fold/order-record';
import { recordColumns, storedOrderRecord, type StoredRecordRow } from '../order-items';
import { all, dialect, type Param, type Procedure } from '../../../store/procedures/procedure';
import { kindOfStored } from './stored-kind';

/** A range of KST days (`YYYY-MM-DD`, both included), of one mall or (null) every mall. */
export interface SummaryRange {
  from: string;
  to: string;
  mallId: string | null;
}

type Row = { day: string; mall_id: string; currency: string; kind: string; method: string; count: number | string; amount: number | string };

/**
 * The day's money for each day of the range, mall and currency (currency '' read as
 * `defaultCurrency`): the range's rows of the daily totals, and the status changes before it summed
 * (a few rows per mall, status and day, never per order). What an export of the summary reads.
 */
export function* dailySummary(range: SummaryRange, defaultCurrency: string): Procedure<SummaryDay[]> {
  const mall = range.mallId === null ? '' : ' AND mall_id = ?';
  const mallParam: Param[] = range.mallId === null ? [] : [range.mallId];
  const rows = yield* all<Row>(`SELECT day, mall_id, currency, kind, method, count, amount FROM summary_daily
    WHERE day >= ? AND day <= ?${mall}`, range.from, range.to, ...mallParam);
  const before = yield* all<Row>(`SELECT '' AS day, mall_id, currency, 'status' AS kind, method, sum(count) AS count, 0 AS amount FROM summary_daily
    WHERE day < ? AND kind = 'status'${mall} GROUP BY mall_id, currency, method`, range.from, ...mallParam);
  return summaryDays(rows.map(summaryRow), before.map(summaryRow), range, defaultCurrency);
}

/**
 * The records of the orders with an event on `day` (summary_order_days, migration 028), by mall and
 * order number: the list's key is the page's order, so a page reads as many rows as it shows.
 */
export function* dayOrders(day: string, mallId: string | null, limit: number): Procedure<OrderRecord[]> {
  const rows = yield* all<StoredRecordRow>(`SELECT ${recordColumns(yield* dialect(), 'o')} FROM summary_order_days d
    JOIN ledger_orders o ON o.mall_id = d.mall_id AND o.shop_order_no = d.shop_order_no
    WHERE d.day = ?${mallId === null ? '' : ' AND d.mall_id = ?'} AND o.record_json IS NOT NULL ORDER BY d.mall_id, d.shop_order_no LIMIT ?`, day, ...(mallId === null ? [] : [mallId]), limit);
  return rows.map((row) => storedOrderRecord(row)!);
}

// PostgreSQL answers BIGINT and sum() as text.
function summaryRow(row: Row): SummaryRow {
  const { kind, simulated } = kindOfStored(row.kind);
  return { day: row.day, mallId: row.mall_id, currency: row.currency, kind: kind as SummaryRow['kind'], method: row.method, simulated, count: Number(row.count), amount: Number(row.amount) };
}
