import { payoutDifference, type PayoutDifference } from '../matching/payout-differences';
import { all, type Procedure } from '../../store/procedures/procedure';

/** The rows of one payout that do not add up a list shows at most; a payout with more says so by its sums. */
const ROWS_SHOWN = 200;

type Num = number | string;

/**
 * The payouts of the days `from`..`to` (payout days, a range the caller checked) that do not add up
 * (`payoutDifference`), per payout day and mall: the groups are found by one aggregate, and only
 * their rows that do not add up are read.
 */
export function* payoutDifferences(from: string, to: string, mallId: string | null): Procedure<PayoutDifference[]> {
  const mall = mallId === null ? '' : ' AND mall_id = ?';
  const mallParam = mallId === null ? [] : [mallId];
  const groups = yield* all<{ payout_day: string; mall_id: string }>(`SELECT payout_day, mall_id FROM settlement_rows
    WHERE payout_day >= ? AND payout_day <= ?${mall} GROUP BY payout_day, mall_id
    HAVING sum(CASE WHEN gross - fee - fee_vat <> payout THEN 1 ELSE 0 END) > 0 OR count(DISTINCT import_id) > 1
    ORDER BY payout_day, mall_id`, from, to, ...mallParam);
  const found: PayoutDifference[] = [];
  for (const group of groups) {
    const imports = yield* all<{ import_id: string; payout: Num; computed: Num }>(`SELECT import_id, sum(payout) AS payout, sum(gross - fee - fee_vat) AS computed
      FROM settlement_rows WHERE payout_day = ? AND mall_id = ? GROUP BY import_id ORDER BY import_id`, group.payout_day, group.mall_id);
    const rows = yield* all<{ import_id: string; line: Num; pg_cno: string; cancel_pg_cno: string | null; gross: Num; fee: Num; fee_vat: Num; payout: Num }>(
      `SELECT import_id, line, pg_cno, cancel_pg_cno, gross, fee, fee_vat, payout FROM settlement_rows
      WHERE payout_day = ? AND mall_id = ? AND gross - fee - fee_vat <> payout ORDER BY import_id, line LIMIT ${ROWS_SHOWN}`, group.payout_day, group.mall_id);
    // PostgreSQL answers BIGINT and sum() as text.
    const difference = payoutDifference(group.payout_day, group.mall_id,
      rows.map((r) => ({ importId: r.import_id, line: Number(r.line), pgCno: r.pg_cno, cancelPgCno: r.cancel_pg_cno, gross: Number(r.gross), fee: Number(r.fee), feeVat: Number(r.fee_vat), payout: Number(r.payout) })),
      imports.map((i) => ({ importId: i.import_id, payout: Number(i.payout), computed: Number(i.computed) })));
    if (difference !== null) found.push(difference);
  }
  return found;
}
