/**
 * The details of a discrepancy (discrepancy-conditions.ts) that are amounts of the order's money;
 * the others are ids, counts, codes and times. One list, so the console and the CLI show the same
 * numbers as money: `rejectionId` and `payments` are not, `storedAmount`, `computed` and a statement's `gross`, `fee`, `feeVat` and `payout` are.
 */
const AMOUNT_DETAILS = new Set(['expected', 'notified', 'largestPayment', 'remaining', 'approved', 'deposited', 'cancelled', 'computed', 'amount', 'gross', 'fee', 'feeVat', 'payout']);

export function isAmountDetail(name: string): boolean {
  return AMOUNT_DETAILS.has(name) || name.endsWith('Amount');
}
