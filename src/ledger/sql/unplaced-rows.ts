import type { ListedTransaction } from '../fold/ledger-facts';
import type { Placement, UnplacedRow } from '../projection/late-listings';
import { allRows, changes, ladderChunks, oneTrip, placeholders, sqlBySize, type Procedure, type Statement } from '../../store/procedures/procedure';

/** pgCnos per statement. */
const PG_CNOS_EACH = 500;
/**
 * The partial index of the rows in no order, by pgCno: led by the pgCno, which the table's own key
 * (import and line) cannot answer, so SQLite's planner takes it over a walk of an import's rows.
 */
const UNPLACED = sqlBySize((pgCnos) => `SELECT import_id, line, kind, pg_cno, cancel_pg_cno, amount, status, at FROM reconciliation_rows
  WHERE shop_order_no IS NULL AND pg_cno IN (${placeholders(pgCnos)})`);

interface UnplacedStored {
  import_id: string;
  line: number | string;
  kind: ListedTransaction['kind'];
  pg_cno: string;
  cancel_pg_cno: string | null;
  amount: number | string;
  status: ListedTransaction['status'];
  at: string;
}

/** The imports' rows stored with no order for each (import, pgCno) pair, in one trip: nothing is read for a batch that asks for none. */
export function* unplacedRows(lookups: ReadonlyArray<{ importId: string; pgCno: string }>): Procedure<UnplacedRow[]> {
  if (lookups.length === 0) return [];
  const wanted = new Set(lookups.map((l) => JSON.stringify([l.importId, l.pgCno])));
  const pgCnos = [...new Set(lookups.map((l) => l.pgCno))];
  const runs = ladderChunks(pgCnos, 1, PG_CNOS_EACH).map((run) => allRows(UNPLACED(run.length), ...run));
  const answers = (yield* oneTrip(...runs)) as UnplacedStored[][];
  // Another import's row of the pgCno (one no longer governing its day) is no row of these.
  return answers.flat().filter((r) => wanted.has(JSON.stringify([r.import_id, r.pg_cno]))).map((r) => ({
    importId: r.import_id,
    // The keys in the order the import's own facts list them: the fact's id is of its rows' JSON.
    row: { line: Number(r.line), kind: r.kind, pgCno: r.pg_cno, cancelPgCno: r.cancel_pg_cno, amount: Number(r.amount), status: r.status, at: r.at },
  }));
}

/**
 * The order's number on each row a batch placed, written with the batch's facts: the day's
 * figures then count the row as the order's. A row placed meanwhile keeps the order it has.
 */
export const placementWrites = (placed: readonly Placement[]): Statement[] =>
  placed.map((p) => changes('UPDATE reconciliation_rows SET shop_order_no = ? WHERE import_id = ? AND line = ? AND shop_order_no IS NULL', p.order.shopOrderNo, p.importId, p.line));
