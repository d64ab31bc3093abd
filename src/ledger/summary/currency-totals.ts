import { noMoney, type CountAmount, type MoneyFigures, type SummaryDay } from './summary-days';

/** A day row, or the total of one currency over every day and mall of the export. */
export type SummaryLine = SummaryDay & { total?: true };

const add = (a: CountAmount | undefined, b: CountAmount | undefined): CountAmount => ({ count: (a?.count ?? 0) + (b?.count ?? 0), amount: (a?.amount ?? 0) + (b?.amount ?? 0) });

function plusMoney(sum: MoneyFigures, day: MoneyFigures): MoneyFigures {
  const byMethod: Record<string, CountAmount> = { ...sum.payments.byMethod };
  for (const [method, figure] of Object.entries(day.payments.byMethod)) byMethod[method] = add(byMethod[method], figure);
  return {
    payments: { ...add(sum.payments, day.payments), byMethod },
    cancels: add(sum.cancels, day.cancels),
    deposits: add(sum.deposits, day.deposits),
    depositCancels: add(sum.depositCancels, day.depositCancels),
    refundsFailed: { ...add(sum.refundsFailed, day.refundsFailed), unknownCount: sum.refundsFailed.unknownCount + day.refundsFailed.unknownCount },
    net: sum.net + day.net,
  };
}

function plus(sum: SummaryDay, day: SummaryDay): SummaryDay {
  return {
    ...sum,
    ...plusMoney(sum, day),
    simulated: plusMoney(sum.simulated, day.simulated),
    discrepancies: { opened: sum.discrepancies.opened + day.discrepancies.opened, resolved: sum.discrepancies.resolved + day.discrepancies.resolved },
  };
}

/**
 * One total line per currency, in the order the currencies first appear: amounts in different
 * currencies are never added together, nor simulated orders' into the real (they stay apart in
 * `simulated`). Minor units are integers, so the sums are exact; orders by
 * status are a day's end state, not a flow, and are left out of a total.
 */
export function currencyTotals(days: readonly SummaryDay[]): SummaryLine[] {
  const totals = new Map<string, SummaryDay>();
  for (const day of days) {
    const zero: SummaryDay = { date: '', mallId: '', currency: day.currency, ...noMoney(), simulated: noMoney(), discrepancies: { opened: 0, resolved: 0 }, ordersByStatus: {} };
    totals.set(day.currency, plus(totals.get(day.currency) ?? zero, day));
  }
  return [...totals.values()].map((sum) => ({ ...sum, total: true }));
}
