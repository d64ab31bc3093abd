import type { PayoutSums, SettlementSums } from '../../ledger/summary/day-settlement';
import { all, type Param, type Procedure } from '../../store/procedures/procedure';

type Num = number | string;

/**
 * The settlement statement's sums for a range of days (one mall, or every mall): fees, VAT and
 * payouts per transaction day, and payouts per payout day and the transaction day they pay for.
 * Aggregates, never rows: a year of days reads a few rows per day.
 */
export function* settlementSums(from: string, to: string, mallId: string | null): Procedure<{ sums: SettlementSums[]; payouts: PayoutSums[] }> {
  const mall = mallId === null ? '' : ' AND mall_id = ?';
  const mallParam: Param[] = mallId === null ? [] : [mallId];
  const sums = yield* all<{ day: string; mall_id: string; count: Num; gross: Num; fee: Num; fee_vat: Num; payout: Num }>(`SELECT transaction_day AS day, mall_id,
      count(*) AS count, sum(gross) AS gross, sum(fee) AS fee, sum(fee_vat) AS fee_vat, sum(payout) AS payout
    FROM settlement_rows WHERE transaction_day >= ? AND transaction_day <= ?${mall} GROUP BY transaction_day, mall_id`, from, to, ...mallParam);
  const payouts = yield* all<{ day: string; mall_id: string; transaction_day: string | null; count: Num; amount: Num }>(`SELECT payout_day AS day, mall_id, transaction_day,
      count(*) AS count, sum(payout) AS amount
    FROM settlement_rows WHERE payout_day >= ? AND payout_day <= ?${mall} GROUP BY payout_day, mall_id, transaction_day`, from, to, ...mallParam);
  // PostgreSQL answers BIGINT and sum() as text.
  return {
    sums: sums.map((r) => ({ day: r.day, mallId: r.mall_id, count: Number(r.count), gross: Number(r.gross), fee: Number(r.fee), feeVat: Number(r.fee_vat), payout: Number(r.payout) })),
    payouts: payouts.map((r) => ({ day: r.day, mallId: r.mall_id, transactionDay: r.transaction_day, count: Number(r.count), amount: Number(r.amount) })),
  };
}
