import type { ListedTransaction } from '../fold/ledger-facts';
import type { Placement, UnplacedRow } from '../projection/late-listings';
import { allRows, changes, ladderChunks, oneTrip, sqlBySize, valueRows, type Param, type Procedure, type Statement } from '../../store/procedures/procedure';

/** Pairs per statement: two parameters each. */
const PAIRS_EACH = 500;
/** The partial index of the rows no order was found for answers each (import, pgCno) pair. */
const UNPLACED = sqlBySize((pairs) => `SELECT import_id, line, kind, pg_cno, cancel_pg_cno, amount, status, at FROM reconciliation_rows
  WHERE shop_order_no IS NULL AND (import_id, pg_cno) IN (VALUES ${valueRows(pairs, 2)})`);

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

/** The imports' rows stored with no order for each pair, in one trip: nothing is read for a batch that asks for none. */
export function* unplacedRows(lookups: ReadonlyArray<{ importId: string; pgCno: string }>): Procedure<UnplacedRow[]> {
  if (lookups.length === 0) return [];
  const runs = ladderChunks(lookups, 2, PAIRS_EACH).map((run) => allRows(UNPLACED(run.length), ...run.flatMap((l): Param[] => [l.importId, l.pgCno])));
  const answers = (yield* oneTrip(...runs)) as UnplacedStored[][];
  return answers.flat().map((r) => ({
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
