import { GATEWAY_LIST_KINDS, RESEND_PATH } from '../../ledger/fold/gateway-list-conditions';
import type { ListedTransaction } from '../../ledger/fold/ledger-facts';
import type { Discrepancy, DiscrepancyKind } from '../../ledger/fold/order-record';
import { jsonField } from '../../store/procedures/json-field';
import { all, allRows, dialect, oneTrip, type Procedure } from '../../store/procedures/procedure';
import { storedImportOf, type StoredImport } from './import-lookups';

/** Those about a row of the list (the fourth is about a notification the list lacks). */
const ROW_KINDS = new Set<string>(['gateway_amount_differs', 'gateway_status_differs', 'notification_missing']);

/**
 * A row of the governing file that names no order, whose pgCno no notification named: a
 * notification the gateway sent and this receiver never accepted, in no order until the
 * gateway's resend (`resendPath`) arrives and the ledger places the row in its order.
 */
export interface UnplacedListRow extends ListedTransaction {
  resendPath: string;
}

export interface Tally {
  count: number;
  /** In KRW's minor unit (won): the gateway's lists are in won. */
  amount: number;
}

/**
 * The reconciliation of one KST day and one mall, for the console's page and the CLI:
 *
 * - `files`: every import that covers the day, newest first; `governing` marks the one whose rows
 *   count for it (imported last), `rowsOfDay` how many of its rows are of that day.
 * - `rows`: the governing file's rows of the day, payments and cancels apart, counted and summed.
 * - `matched`: those of them no open difference names (the ledger found the notification, with
 *   the same amount and status; a failed transaction the receiver was never told of counts too).
 * - `differences`: the counts by kind, open and resolved, of the discrepancies the match opened for
 *   the day (a row's day, or a notification's for `not_in_gateway_list`), and the first `limit` of
 *   them (open first, then by opening), each with its order.
 * - `unplaced`: the governing file's rows of the day in no order (the file names none and no
 *   notification named their pgCno; a failed transaction aside), by line. Each is a missing
 *   notification: counted in `differences.open` as `notification_missing`, not in `matched`.
 *
 * Amounts are integers in won. A day no file covers has no entry.
 */
export interface ReconciliationDay {
  day: string;
  mallId: string;
  currency: 'KRW';
  files: Array<StoredImport & { governing: boolean; rowsOfDay: number }>;
  rows: { payments: Tally; cancels: Tally };
  matched: { payments: Tally; cancels: Tally };
  differences: {
    open: Partial<Record<DiscrepancyKind, number>>;
    resolved: Partial<Record<DiscrepancyKind, number>>;
    listed: Array<Discrepancy & { mallId: string; shopOrderNo: string }>;
  };
  unplaced: UnplacedListRow[];
}

interface DiscrepancyRow { mall_id: string; shop_order_no: string; kind: string; resolved_at: string | null; discrepancy_json: string }

/** The day's reconciliation per mall (one mall when `mallId` is given), by mall id. */
export function* reconciliationDay(day: string, mallId: string | null, limit = 100): Procedure<ReconciliationDay[]> {
  const sql = yield* dialect();
  const files = (yield* all<Parameters<typeof storedImportOf>[0] & { rows_of_day: number | string }>(
    `SELECT i.*, (SELECT COUNT(*) FROM reconciliation_rows r WHERE r.mall_id = i.mall_id AND r.day = ? AND r.import_id = i.id) AS rows_of_day
       FROM reconciliation_imports i WHERE i.first_day <= ? AND i.last_day >= ? ${mallId === null ? '' : 'AND i.mall_id = ?'}
       ORDER BY i.mall_id, i.imported_at DESC, i.id DESC`,
    day, day, day, ...(mallId === null ? [] : [mallId]),
  )).map((r) => ({ ...storedImportOf(r), rowsOfDay: Number(r.rows_of_day) }));
  const malls = [...new Set(files.map((f) => f.mallId))];
  const days: ReconciliationDay[] = [];
  for (const mall of malls) {
    const ofMall = files.filter((f) => f.mallId === mall);
    // The transaction list imported last speaks for the day; a settlement statement lists no notifications to match.
    const governing = ofMall.find((f) => f.kind === 'transactions');
    const [totals, unplacedRows, found] = (yield* oneTrip(
      allRows('SELECT kind, COUNT(*) AS n, COALESCE(SUM(amount), 0) AS amount FROM reconciliation_rows WHERE mall_id = ? AND day = ? AND import_id = ? GROUP BY kind', mall, day, governing?.id ?? ''),
      allRows(
        `SELECT line, kind, pg_cno, cancel_pg_cno, amount, status, at FROM reconciliation_rows
           WHERE mall_id = ? AND day = ? AND import_id = ? AND shop_order_no IS NULL AND status <> 'failed' ORDER BY line`,
        mall, day, governing?.id ?? '',
      ),
      allRows(
        `SELECT mall_id, shop_order_no, kind, resolved_at, discrepancy_json FROM ledger_discrepancies
           WHERE mall_id = ? AND kind IN (${GATEWAY_LIST_KINDS.map(() => '?').join(', ')}) AND ${jsonField(sql, 'discrepancy_json', ['details', 'day'])} = ?
           ORDER BY CASE WHEN resolved_at IS NULL THEN 0 ELSE 1 END, opened_at, id`,
        mall, ...GATEWAY_LIST_KINDS, day,
      ),
    )) as [Array<{ kind: string; n: number | string; amount: number | string }>, UnplacedStored[], DiscrepancyRow[]];
    const rows = { payments: tally(totals, 'payment'), cancels: tally(totals, 'cancel') };
    const unplaced = unplacedRows.map(unplacedOf);
    const open = countBy(found.filter((d) => d.resolved_at === null));
    if (unplaced.length > 0) open.notification_missing = (open.notification_missing ?? 0) + unplaced.length;
    days.push({
      day, mallId: mall, currency: 'KRW',
      files: ofMall.map((f) => ({ ...f, governing: f === governing })),
      rows,
      matched: matchedOf(rows, found, unplaced),
      differences: {
        open,
        resolved: countBy(found.filter((d) => d.resolved_at !== null)),
        listed: found.slice(0, limit).map((d) => ({ ...(JSON.parse(d.discrepancy_json) as Discrepancy), mallId: d.mall_id, shopOrderNo: d.shop_order_no })),
      },
      unplaced: unplaced.slice(0, limit),
    });
  }
  return days;
}

interface UnplacedStored { line: number | string; kind: ListedTransaction['kind']; pg_cno: string; cancel_pg_cno: string | null; amount: number | string; status: ListedTransaction['status']; at: string }

const unplacedOf = (r: UnplacedStored): UnplacedListRow => ({
  line: Number(r.line), kind: r.kind, pgCno: r.pg_cno, cancelPgCno: r.cancel_pg_cno, amount: Number(r.amount), status: r.status, at: r.at, resendPath: RESEND_PATH,
});

function tally(totals: ReadonlyArray<{ kind: string; n: number | string; amount: number | string }>, kind: string): Tally {
  const row = totals.find((t) => t.kind === kind);
  return { count: Number(row?.n ?? 0), amount: Number(row?.amount ?? 0) };
}

/** The day's rows less those an open difference names, each row once (its amount and its status may both differ), and less those in no order. */
function matchedOf(rows: ReconciliationDay['rows'], found: readonly DiscrepancyRow[], unplaced: readonly UnplacedListRow[]): ReconciliationDay['matched'] {
  const differing = new Map<string, { cancel: boolean; amount: number }>();
  for (const d of found) {
    if (d.resolved_at !== null || !ROW_KINDS.has(d.kind)) continue;
    const { details } = JSON.parse(d.discrepancy_json) as Discrepancy;
    const key = JSON.stringify([d.mall_id, d.shop_order_no, details.pgCno, details.cancelPgCno ?? null, details.line ?? null]);
    differing.set(key, { cancel: details.cancelPgCno !== null && details.cancelPgCno !== undefined, amount: Number(details.listedAmount ?? 0) });
  }
  for (const u of unplaced) differing.set(JSON.stringify([null, u.line]), { cancel: u.kind === 'cancel', amount: u.amount });
  const matched = { payments: { ...rows.payments }, cancels: { ...rows.cancels } };
  for (const { cancel, amount } of differing.values()) {
    const t = cancel ? matched.cancels : matched.payments;
    t.count -= 1;
    t.amount -= amount;
  }
  return matched;
}

function countBy(rows: readonly DiscrepancyRow[]): Partial<Record<DiscrepancyKind, number>> {
  const counts: Partial<Record<DiscrepancyKind, number>> = {};
  for (const r of rows) counts[r.kind as DiscrepancyKind] = (counts[r.kind as DiscrepancyKind] ?? 0) + 1;
  return counts;
}
