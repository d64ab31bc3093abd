import type { OrderKey } from '../../ledger/fold/ledger-facts';
import { all, allRows, chunks, oneTrip, placeholders, type Procedure } from '../../store/procedures/procedure';

/** An import already stored, as its summary shows it. */
export interface StoredImport {
  id: string;
  /** The SHA-256 of the file's bytes, hex. */
  sha256: string;
  kind: string;
  fileName: string;
  mallId: string;
  firstDay: string;
  lastDay: string;
  rowCount: number;
  orderCount: number;
  importedBy: string;
  importedAt: string;
}

interface ImportRow {
  id: string; sha256: string; kind: string; file_name: string; mall_id: string; first_day: string; last_day: string;
  row_count: number | string; order_count: number | string; imported_by: string; imported_at: string;
}

const IMPORT_COLUMNS = 'id, sha256, kind, file_name, mall_id, first_day, last_day, row_count, order_count, imported_by, imported_at';

export const storedImportOf = (r: ImportRow): StoredImport => ({
  id: r.id, sha256: r.sha256, kind: r.kind, fileName: r.file_name, mallId: r.mall_id, firstDay: r.first_day, lastDay: r.last_day,
  rowCount: Number(r.row_count), orderCount: Number(r.order_count), importedBy: r.imported_by, importedAt: r.imported_at,
});

/** The import of this id, when it was stored whole. */
export function* findImport(id: string): Procedure<StoredImport | null> {
  const [row] = yield* all<ImportRow>(`SELECT ${IMPORT_COLUMNS} FROM reconciliation_imports WHERE id = ?`, id);
  return row === undefined ? null : storedImportOf(row);
}

/**
 * How many of an import's rows are payments and how many cancels: a transaction list's by their
 * kind, a settlement statement's by the sign of their gross (a cancel is paid back). Read by the
 * import's key, so the answer is the file's whatever later file governs its days.
 */
export function* importRowCounts(stored: Pick<StoredImport, 'id' | 'kind'>): Procedure<{ payments: number; cancels: number }> {
  const [row] = yield* all<{ payments: number | string | null; cancels: number | string | null }>(stored.kind === 'settlement'
    ? 'SELECT sum(CASE WHEN gross < 0 THEN 0 ELSE 1 END) AS payments, sum(CASE WHEN gross < 0 THEN 1 ELSE 0 END) AS cancels FROM settlement_rows WHERE import_id = ?'
    : "SELECT sum(CASE WHEN kind = 'cancel' THEN 0 ELSE 1 END) AS payments, sum(CASE WHEN kind = 'cancel' THEN 1 ELSE 0 END) AS cancels FROM reconciliation_rows WHERE import_id = ?",
  stored.id);
  // PostgreSQL answers sum() as text, and either database null for no rows.
  return { payments: Number(row?.payments ?? 0), cancels: Number(row?.cancels ?? 0) };
}

/** The imports of a mall (or every mall) that cover a KST day, newest first; every import when no day is given. */
export function* listImports(filter: { day: string | null; mallId: string | null; limit: number }): Procedure<StoredImport[]> {
  const where: string[] = [];
  const params: string[] = [];
  if (filter.day !== null) {
    where.push('first_day <= ? AND last_day >= ?');
    params.push(filter.day, filter.day);
  }
  if (filter.mallId !== null) {
    where.push('mall_id = ?');
    params.push(filter.mallId);
  }
  const rows = yield* all<ImportRow>(
    `SELECT ${IMPORT_COLUMNS} FROM reconciliation_imports ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY imported_at DESC, id DESC LIMIT ${Math.max(1, Math.min(filter.limit, 1000))}`,
    ...params,
  );
  return rows.map(storedImportOf);
}

/**
 * The order each pgCno was notified for in the mall (the console search's rows): a row whose file
 * names no order number is matched in that order. A pgCno notified under two orders takes the first.
 */
export function* ordersOfPgCnos(mallId: string, pgCnos: readonly string[]): Procedure<Array<[string, string]>> {
  const found = new Map<string, string>();
  const runs = chunks([...new Set(pgCnos)], 1, 500).map((run) =>
    allRows(`SELECT pg_cno, shop_order_no FROM payment_search WHERE mall_id = ? AND pg_cno IN (${placeholders(run.length)}) ORDER BY at_ms`, mallId, ...run));
  for (const rows of (yield* oneTrip(...runs)) as Array<Array<{ pg_cno: string; shop_order_no: string }>>) {
    for (const row of rows) if (!found.has(row.pg_cno)) found.set(row.pg_cno, row.shop_order_no);
  }
  return [...found];
}

/**
 * The orders of the mall a list for these KST days must speak of even where it does not list
 * them: those with a notification on one of the days (the day page's list), and those an earlier
 * list placed a row of on one of them (the later list supersedes it for those days).
 */
export function* ordersOnDays(mallId: string, firstDay: string, lastDay: string): Procedure<OrderKey[]> {
  const [notified, listed] = (yield* oneTrip(
    allRows('SELECT DISTINCT shop_order_no FROM summary_order_days WHERE day >= ? AND day <= ? AND mall_id = ?', firstDay, lastDay, mallId),
    allRows('SELECT DISTINCT shop_order_no FROM reconciliation_rows WHERE mall_id = ? AND day >= ? AND day <= ? AND shop_order_no IS NOT NULL', mallId, firstDay, lastDay),
  )) as [Array<{ shop_order_no: string }>, Array<{ shop_order_no: string }>];
  const numbers = new Set([...notified, ...listed].map((r) => r.shop_order_no));
  return [...numbers].map((shopOrderNo) => ({ mallId, shopOrderNo }));
}
