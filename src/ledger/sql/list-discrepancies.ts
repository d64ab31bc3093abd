import type { Discrepancy } from '../fold/order-record';
import { jsonField, jsonFlag } from '../../store/procedures/json-field';
import { all, allRows, dialect, oneTrip, type Dialect, type Param, type Procedure } from '../../store/procedures/procedure';

export interface ListedDiscrepancy extends Discrepancy {
  mallId: string;
  shopOrderNo: string;
}

export interface DiscrepancyCursor {
  openedAt: string;
  id: string;
}

export interface DiscrepancyPage {
  discrepancies: ListedDiscrepancy[];
  last: DiscrepancyCursor | null;
  /**
   * The currency of each listed discrepancy's order's expectation, by discrepancy id, read in the
   * list's query; an order without one is left out (orderCurrency: the mall's default applies).
   * Apart from the discrepancies, whose shape the internal API and the CLI's --json show as is.
   */
  currencies: Record<string, string>;
  /** The ids of the listed discrepancies whose order the simulator made up (its record says `simulated`), read as the currencies are: the pages and files mark them. */
  simulated: string[];
}

/**
 * An order's expectation's currency, read from its record where orderCurrency reads it
 * (`expected.currency`; null when the order has no expectation). A subquery by the orders' unique
 * key, so each listed row is one index search of it, after the LIMIT, and no plan can hash the
 * orders table for a page of discrepancies.
 */
const expectedCurrency = (dialect: Dialect): string =>
  `(SELECT ${jsonField(dialect, 'o.record_json', ['expected', 'currency'])} FROM ledger_orders o WHERE o.shop_order_no = d.shop_order_no AND o.mall_id = d.mall_id)`;

/** Whether the discrepancy's order is simulated, by the same one search of the orders' key. */
const orderSimulated = (dialect: Dialect): string =>
  `(SELECT ${jsonFlag(dialect, 'o.record_json', ['simulated'])} FROM ledger_orders o WHERE o.shop_order_no = d.shop_order_no AND o.mall_id = d.mall_id)`;

/**
 * Discrepancies in the order they opened, a page after `after`: the open ones only with `open`,
 * the resolved ones only with `resolved` (the console lists the open ones once, then the others).
 * Each comes with its order's currency, so a list shows money without reading each order.
 */
export function* listDiscrepancies(filter: { open: boolean; resolved?: boolean; after?: DiscrepancyCursor; limit: number }): Procedure<DiscrepancyPage> {
  const conditions: string[] = filter.open ? ['d.resolved_at IS NULL'] : filter.resolved ? ['d.resolved_at IS NOT NULL'] : [];
  const params: Param[] = [];
  if (filter.after) {
    conditions.push('(d.opened_at, d.id) > (?, ?)');
    params.push(filter.after.openedAt, filter.after.id);
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const sql = yield* dialect();
  const rows = yield* all<{ mall_id: string; shop_order_no: string; discrepancy_json: string; opened_at: string; id: string; currency: string | null; simulated: boolean | number | null }>(
    `SELECT d.id, d.mall_id, d.shop_order_no, d.opened_at, d.discrepancy_json, ${expectedCurrency(sql)} AS currency, ${orderSimulated(sql)} AS simulated
       FROM ledger_discrepancies d ${where} ORDER BY d.opened_at, d.id LIMIT ?`,
    ...params, filter.limit,
  );
  const last = rows.length === filter.limit ? rows.at(-1)! : null;
  return {
    discrepancies: rows.map((row) => ({ ...(JSON.parse(row.discrepancy_json) as Discrepancy), mallId: row.mall_id, shopOrderNo: row.shop_order_no })),
    last: last && { openedAt: last.opened_at, id: last.id },
    currencies: Object.fromEntries(rows.flatMap((row) => (row.currency === null ? [] : [[row.id, row.currency]]))),
    simulated: rows.filter((row) => Boolean(row.simulated)).map((row) => row.id),
  };
}

/** Open discrepancies per kind, for the metric: a count of the open ones' partial index. */
export function* openDiscrepancyCounts(): Procedure<Record<string, number>> {
  const rows = yield* all<{ kind: string; n: number | string }>('SELECT kind, count(*) AS n FROM ledger_discrepancies WHERE resolved_at IS NULL GROUP BY kind');
  return Object.fromEntries(rows.map((row) => [row.kind, Number(row.n)]));
}

export interface OpenDiscrepancyCount {
  kind: string;
  /** Of an order the simulator made up (its record says `simulated`). */
  simulated: boolean;
  count: number;
}

/**
 * The rows of the lists that govern their days that no order was found for (a failed one aside):
 * each a notification the gateway sent and this receiver never accepted, in no order. The partial
 * index of those rows is walked; a later list covering the row's day takes its place.
 */
const UNPLACED_MISSING = `SELECT count(*) AS n FROM reconciliation_rows r JOIN reconciliation_imports i ON i.id = r.import_id
  WHERE r.shop_order_no IS NULL AND r.status <> 'failed' AND NOT EXISTS (SELECT 1 FROM reconciliation_imports j
    WHERE j.mall_id = r.mall_id AND j.kind = 'transactions' AND j.first_day <= r.day AND j.last_day >= r.day
      AND (j.imported_at > i.imported_at OR (j.imported_at = i.imported_at AND j.id > i.id)))`;

/**
 * Open discrepancies per kind and per real or simulated order, for the metric, so the alert wakes
 * nobody for the simulator's orders. Each open one finds its order by the orders' unique key. The
 * rows of a list in no order count as `notification_missing` of a real order: the alert on a lost
 * notification fires whether or not the file had an order-number column.
 */
export function* openDiscrepancyCountsByOrigin(): Procedure<OpenDiscrepancyCount[]> {
  const simulated = jsonFlag(yield* dialect(), 'o.record_json', ['simulated']);
  const [rows, unplaced] = (yield* oneTrip(
    allRows(`SELECT d.kind, ${simulated} AS simulated, count(*) AS n FROM ledger_discrepancies d
       JOIN ledger_orders o ON o.shop_order_no = d.shop_order_no AND o.mall_id = d.mall_id
     WHERE d.resolved_at IS NULL GROUP BY d.kind, ${simulated}`),
    allRows(UNPLACED_MISSING),
  )) as [Array<{ kind: string; simulated: boolean | number; n: number | string }>, Array<{ n: number | string }>];
  const counts = rows.map((row) => ({ kind: row.kind, simulated: Boolean(row.simulated), count: Number(row.n) }));
  const lost = Number(unplaced[0]?.n ?? 0);
  if (lost === 0) return counts;
  const missing = counts.find((c) => c.kind === 'notification_missing' && !c.simulated);
  if (missing) missing.count += lost;
  else counts.push({ kind: 'notification_missing', simulated: false, count: lost });
  return counts;
}
