import { summaryDays, type SummaryDay, type SummaryRow } from '../../summary/summary-days';
import { closedView } from '../../summary/day-close';
import { laterAdjustments, withAdjustments } from '../../summary/day-adjustments';
import { withSettlement } from '../../summary/day-settlement';
import { settlementSums } from '../../../reconciliation/sql/settlement-sums';
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
 * `defaultCurrency`), as the day view, the summary, the API and the exports show it: a closed day's
 * lines are those kept at its close, with what moved it later (`closedView`); every other day's are
 * its live sums (`liveSummary`).
 */
export function* dailySummary(range: SummaryRange, defaultCurrency: string): Procedure<SummaryDay[]> {
  const live = yield* liveSummary(range, defaultCurrency);
  const closes = yield* all<{ day: string; mall_id: string; closed_at: string; closed_by: string; figures_json: string }>(`SELECT day, mall_id, closed_at, closed_by, figures_json
    FROM summary_closes WHERE day >= ? AND day <= ?${range.mallId === null ? '' : " AND mall_id IN ('', ?)"}`, range.from, range.to, ...mallParams(range));
  if (closes.length === 0) return live;
  const later = yield* all<Row & { adjusts_day: string }>(`SELECT day, adjusts_day, mall_id, currency, kind, method, count, amount FROM summary_adjustments
    WHERE adjusts_day >= ? AND adjusts_day <= ?${mallClause(range)}`, range.from, range.to, ...mallParams(range));
  return closedView(live, closes.map((c) => ({ day: c.day, mallId: c.mall_id, closedAt: c.closed_at, closedBy: c.closed_by, figures: JSON.parse(c.figures_json) as SummaryDay[] })),
    laterAdjustments(later.map((row) => ({ ...summaryRow(row), adjusts: row.adjusts_day })), defaultCurrency), range.mallId);
}

/**
 * Every day's live sums: the range's rows of the daily totals and the status changes before it
 * summed (a few rows per mall, status and day, never per order), the adjustments of closed days
 * booked on the range's days, and the settlement statement's fees and payouts. What a close keeps.
 */
export function* liveSummary(range: SummaryRange, defaultCurrency: string): Procedure<SummaryDay[]> {
  const mall = mallClause(range);
  const rows = yield* all<Row>(`SELECT day, mall_id, currency, kind, method, count, amount FROM summary_daily
    WHERE day >= ? AND day <= ?${mall}`, range.from, range.to, ...mallParams(range));
  const before = yield* all<Row>(`SELECT '' AS day, mall_id, currency, 'status' AS kind, method, sum(count) AS count, 0 AS amount FROM summary_daily
    WHERE day < ? AND kind = 'status'${mall} GROUP BY mall_id, currency, method`, range.from, ...mallParams(range));
  const adjustments = yield* all<Row & { adjusts_day: string }>(`SELECT day, adjusts_day, mall_id, currency, kind, method, count, amount FROM summary_adjustments
    WHERE day >= ? AND day <= ?${mall}`, range.from, range.to, ...mallParams(range));
  const settlement = yield* settlementSums(range.from, range.to, range.mallId);
  const days = summaryDays(rows.map(summaryRow), before.map(summaryRow), range, defaultCurrency);
  const adjusted = withAdjustments(days, adjustments.map((row) => ({ ...summaryRow(row), adjusts: row.adjusts_day })), defaultCurrency);
  return withSettlement(adjusted, settlement.sums, settlement.payouts, defaultCurrency);
}

const mallClause = (range: SummaryRange) => (range.mallId === null ? '' : ' AND mall_id = ?');
const mallParams = (range: SummaryRange): Param[] => (range.mallId === null ? [] : [range.mallId]);

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
