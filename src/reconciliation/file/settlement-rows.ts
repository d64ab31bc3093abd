import { identifierText, kstDay, wonAmount } from './cell-values';
import { cellProblem, readEach, transactionNumbers, type DataRow } from './data-rows';
import type { FileProblem, SettlementRow } from './gateway-rows';

const SETTLEMENT_AMOUNTS = ['gross', 'fee', 'feeVat', 'payout'] as const;

export const SETTLEMENT_SHAPE = { amounts: SETTLEMENT_AMOUNTS, times: ['payoutDay', 'transactionDay'] };

/**
 * Settlement statement rows. A statement whose fee already includes its VAT carries no VAT
 * column: its VAT reads as zero, so gross - fee - feeVat = payout still holds.
 */
export function settlementRows(rows: readonly DataRow[]): { rows: SettlementRow[]; problems: FileProblem[] } {
  return readEach(rows, settlementRow);
}

function settlementRow(row: DataRow): { row: SettlementRow } | { problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  const { pgCno, cancelPgCno } = transactionNumbers(row, problems);
  const amounts: Record<string, number> = {};
  for (const field of SETTLEMENT_AMOUNTS) {
    const value = wonAmount(row.cell(field));
    if (value === undefined) problems.push(cellProblem(row, field, 'unreadable_amount', 'the amount is not a whole number of won'));
    else if (value === null && field !== 'feeVat') problems.push(cellProblem(row, field, 'empty_cell', 'the amount is empty'));
    else amounts[field] = value ?? 0;
  }
  const payoutDay = kstDay(row.cell('payoutDay'));
  if (payoutDay === null) problems.push(cellProblem(row, 'payoutDay', 'empty_cell', 'the payout day is empty'));
  if (payoutDay === undefined) problems.push(cellProblem(row, 'payoutDay', 'unreadable_time', 'the payout day is not a date'));
  const transactionDay = kstDay(row.cell('transactionDay'));
  if (transactionDay === undefined) problems.push(cellProblem(row, 'transactionDay', 'unreadable_time', 'the transaction day is not a date'));
  if (problems.length > 0) return { problems };
  return {
    row: {
      line: row.line,
      pgCno: pgCno!,
      cancelPgCno: cancelPgCno ?? null,
      shopOrderNo: identifierText(row.cell('shopOrderNo')) ?? null,
      gross: amounts.gross!,
      fee: amounts.fee!,
      feeVat: amounts.feeVat!,
      payout: amounts.payout!,
      payoutDay: payoutDay!,
      transactionDay: transactionDay ?? null,
    },
  };
}
