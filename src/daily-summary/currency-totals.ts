import type { CountAmount, SummaryDay } from './summary-days';

/** A day row, or the total of one currency over every day and mall of the export. */
export type SummaryLine = SummaryDay & { total?: true };

const add = (a: CountAmount | undefined, b: CountAmount | undefined): CountAmount => ({ count: (a?.count ?? 0) + (b?.count ?? 0), amount: (a?.amount ?? 0) + (b?.amount ?? 0) });

function plus(sum: SummaryDay, day: SummaryDay): SummaryDay {
  const byMethod: Record<string, CountAmount> = { ...sum.payments.byMethod };
  for (const [method, figure] of Object.entries(day.payments.byMethod)) byMethod[method] = add(byMethod[method], figure);
  return {
    ...sum,
    payments: { ...add(sum.payments, day.payments), byMethod },
    cancels: add(sum.cancels, day.cancels),
    deposits: add(sum.deposits, day.deposits),
    depositCancels: add(sum.depositCancels, day.depositCancels),
    refundsFailed: { ...add(sum.refundsFailed, day.refundsFailed), unknownCount: sum.refundsFailed.unknownCount + day.refundsFailed.unknownCount },
    net: sum.net + day.net,
    discrepancies: { opened: sum.discrepancies.opened + day.discrepancies.opened, resolved: sum.discrepancies.resolved + day.discrepancies.resolved },
  };
}

/**
 * One total line per currency, in the order the currencies first appear: amounts in different
 * currencies are never added together. Minor units are integers, so the sums are exact; orders by
 * status are a day's end state, not a flow, and are left out of a total.
 */
export function currencyTotals(days: readonly SummaryDay[]): SummaryLine[] {
  const totals = new Map<string, SummaryDay>();
  for (const day of days) {
    const zero: SummaryDay = {
      date: '', mallId: '', currency: day.currency, payments: { count: 0, amount: 0, byMethod: {} }, cancels: add(undefined, undefined),
      deposits: add(undefined, undefined), depositCancels: add(undefined, undefined), refundsFailed: { ...add(undefined, undefined), unknownCount: 0 },
      net: 0, discrepancies: { opened: 0, resolved: 0 }, ordersByStatus: {},
    };
    totals.set(day.currency, plus(totals.get(day.currency) ?? zero, day));
  }
  return [...totals.values()].map((sum) => ({ ...sum, total: true }));
}
