import type { ListingImport } from '../fold/listing-fact';
import type { NotifiedSpan } from '../projection/late-listings';
import { allRows, ladderChunks, oneTrip, sqlBySize, type Param, type Procedure } from '../../store/procedures/procedure';

/** Malls per statement: three parameters each. */
const MALLS_EACH = 200;
const SPANS = sqlBySize((malls) => `SELECT id, mall_id, first_day, last_day, imported_at, lists_cancels FROM reconciliation_imports
  WHERE kind = 'transactions' AND (${Array.from({ length: malls }, () => '(mall_id = ? AND last_day >= ? AND first_day <= ?)').join(' OR ')})`);

interface CoverageRow {
  id: string;
  mall_id: string;
  first_day: string;
  last_day: string;
  imported_at: string;
  lists_cancels: number | string;
}

/**
 * The imported transaction lists that cover some day of each mall's span (the index on mall,
 * last day and first day finds them; a mall has a list or two a day), for the projector to match a
 * notification that arrives after its day's list. Nothing is read for a batch without notifications.
 */
export function* listCoverage(spans: readonly NotifiedSpan[]): Procedure<ListingImport[]> {
  if (spans.length === 0) return [];
  const runs = ladderChunks(spans, 3, MALLS_EACH).map((run) => allRows(SPANS(run.length), ...run.flatMap((s): Param[] => [s.mallId, s.firstDay, s.lastDay])));
  const answers = (yield* oneTrip(...runs)) as CoverageRow[][];
  return answers.flat().map((r) => ({ id: r.id, mallId: r.mall_id, firstDay: r.first_day, lastDay: r.last_day, at: r.imported_at, listsCancels: Number(r.lists_cancels) === 1 }));
}
