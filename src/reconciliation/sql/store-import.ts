import type { GatewayFileFact, OrderKey } from '../../ledger/fold/ledger-facts';
import { storeLedgerInputs } from '../../ledger/sql/ledger-inputs';
import { placementWrites } from '../../ledger/sql/unplaced-rows';
import { kstDay } from '../../ledger/summary/kst-day';
import { recordAudit } from '../../store/procedures/console-operators/record-audit';
import { jsonRows } from '../../store/procedures/json-rows';
import { changes, dialect, get, oneTrip, rowInserts, sqlBySize, valueRows, type Param, type Procedure } from '../../store/procedures/procedure';
import type { GatewayTransactionRow } from '../file/gateway-rows';
import { findImport, type StoredImport } from './import-lookups';

const ROW_COLUMNS = 15;
const COLUMNS = 'import_id, line, mall_id, day, shop_order_no, kind, pg_cno, cancel_pg_cno, amount, cancelled_amount, status, status_text, at, method, approval_no';
const INSERT_ROWS = sqlBySize((rows) => `INSERT INTO reconciliation_rows (${COLUMNS}) VALUES ${valueRows(rows, ROW_COLUMNS)} ON CONFLICT DO NOTHING`);
// PostgreSQL: a page's rows as one JSON parameter (`jsonRows`): one fixed text, prepared once per
// connection, where a VALUES list of a page is 30,000 parameters, parsed and planned at each page.
const PG_ROWS = jsonRows([['import_id', 'text'], ['line', 'integer'], ['mall_id', 'text'], ['day', 'text'], ['shop_order_no', 'text'], ['kind', 'text'],
  ['pg_cno', 'text'], ['cancel_pg_cno', 'text'], ['amount', 'bigint'], ['cancelled_amount', 'bigint'], ['status', 'text'], ['status_text', 'text'],
  ['at', 'text'], ['method', 'text'], ['approval_no', 'text']]);
const PG_INSERT_ROWS = `INSERT INTO reconciliation_rows (${COLUMNS}) SELECT ${COLUMNS} FROM ${PG_ROWS.from} AS r ON CONFLICT DO NOTHING`;

/** A page of an import: some of a transaction list's rows, each with the order it was matched in, and some of its facts (a list's or a statement's). */
export interface ImportPage {
  importId: string;
  mallId: string;
  rows: Array<{ row: GatewayTransactionRow; shopOrderNo: string | null }>;
  facts: Array<{ order: OrderKey; fact: GatewayFileFact }>;
  /** Rows stored before in no order, placed since: each gets its order's number with the facts that carry it. */
  placed?: Array<{ line: number; shopOrderNo: string }>;
}

/**
 * Writes one page of an import in its own transaction: a page at a time, so a list of a hundred
 * thousand rows never holds the one SQLite writer (and the acks behind it) for long. The rows are
 * written again harmlessly (their key is the import and line); the facts are the ledger's inputs,
 * which its projector applies in the order stored. Nothing is an import until `finishImport`.
 */
export function* storeImportPage(page: ImportPage): Procedure<void> {
  const rows = page.rows.map(({ row, shopOrderNo }): Param[] => [
    page.importId, row.line, page.mallId, kstDay(row.at), shopOrderNo, row.kind, row.pgCno, row.cancelPgCno, row.amount,
    row.cancelledAmount, row.status, row.statusText, row.at, row.method, row.approvalNo,
  ]);
  if (rows.length > 0) yield* oneTrip(...((yield* dialect()) === 'postgres' ? [changes(PG_INSERT_ROWS, PG_ROWS.rowsParam(rows))] : rowInserts(INSERT_ROWS, ROW_COLUMNS, rows)));
  const placed = (page.placed ?? []).map((p) => ({ importId: page.importId, line: p.line, order: { mallId: page.mallId, shopOrderNo: p.shopOrderNo } }));
  if (placed.length > 0) yield* oneTrip(...placementWrites(placed));
  yield* storeLedgerInputs(page.facts);
}

/**
 * The import's own row and its audit line, once every page is stored: from then on the same file
 * is known, and the ledger's projector gives an order notified later on one of its days its fact
 * (`listsCancels` is that fact's flag). Answers the import as stored, and whether this call stored
 * it (false: another import of the same file finished first).
 */
export function* finishImport(stored: StoredImport, actor: string, listsCancels = false): Procedure<{ stored: StoredImport; created: boolean }> {
  const existing = yield* findImport(stored.id);
  if (existing !== null) return { stored: existing, created: false };
  yield* get(
    `INSERT INTO reconciliation_imports (id, sha256, kind, file_name, mall_id, first_day, last_day, row_count, order_count, imported_by, imported_at, lists_cancels)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    stored.id, stored.sha256, stored.kind, stored.fileName, stored.mallId, stored.firstDay, stored.lastDay, stored.rowCount, stored.orderCount, stored.importedBy, stored.importedAt,
    listsCancels ? 1 : 0,
  );
  yield* recordAudit({
    at: stored.importedAt, actor, action: 'imported gateway list', subject: stored.id,
    detail: `${stored.mallId} ${stored.kind} ${stored.firstDay}..${stored.lastDay}: ${stored.rowCount} rows, ${stored.orderCount} orders (${stored.fileName})`,
  });
  return { stored, created: true };
}
