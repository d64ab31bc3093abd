import { DayLines } from './day-entries';
import type { DaySettlement, SummaryDay } from './summary-days';

/** The settlement statement's sums for one transaction day and mall. */
export type SettlementSums = DaySettlement & { day: string; mallId: string };
/** What the statement pays out on `day` for one mall, from the transactions of `transactionDay`. */
export interface PayoutSums {
  day: string;
  mallId: string;
  transactionDay: string | null;
  count: number;
  amount: number;
}

/**
 * The statement's figures on the days they belong to: fees, VAT and the expected payout on the
 * day of the transactions they are charged on, and each payout on the day the gateway pays it,
 * with the transaction days it pays for. The statement states won alone, so they are the mall's
 * default currency's line (`defaultCurrency`); a day that booked nothing else still shows them.
 */
export function withSettlement(days: readonly SummaryDay[], sums: readonly SettlementSums[], payouts: readonly PayoutSums[], defaultCurrency: string): SummaryDay[] {
  if (sums.length === 0 && payouts.length === 0) return [...days];
  const lines = new DayLines(days);
  for (const { day, mallId, ...figures } of sums) {
    const line = lines.line(day, mallId, defaultCurrency);
    const was = line.settlement ?? { count: 0, gross: 0, fee: 0, feeVat: 0, payout: 0 };
    line.settlement = { count: was.count + figures.count, gross: was.gross + figures.gross, fee: was.fee + figures.fee, feeVat: was.feeVat + figures.feeVat, payout: was.payout + figures.payout };
  }
  for (const { day, mallId, transactionDay, count, amount } of payouts) {
    const line = lines.line(day, mallId, defaultCurrency);
    const was = line.payouts ?? { count: 0, amount: 0, fromDays: [] };
    line.payouts = { count: was.count + count, amount: was.amount + amount, fromDays: [...was.fromDays, { day: transactionDay, count, amount }].sort((a, b) => ((a.day ?? '') < (b.day ?? '') ? -1 : 1)) };
  }
  return lines.list();
}
