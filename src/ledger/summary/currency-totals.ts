import { noMoney, type CountAmount, type MoneyFigures, type SummaryDay } from './summary-days';

/**
 * A day row, a line of money that arrived on it for a closed day (`adjustsDay`, the day it adjusts),
 * or the total of one currency over every line of the export.
 */
export type SummaryLine = SummaryDay & { total?: true; adjustsDay?: string };

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
  const settled = sum.settlement ?? day.settlement ? {
    count: (sum.settlement?.count ?? 0) + (day.settlement?.count ?? 0), gross: (sum.settlement?.gross ?? 0) + (day.settlement?.gross ?? 0),
    fee: (sum.settlement?.fee ?? 0) + (day.settlement?.fee ?? 0), feeVat: (sum.settlement?.feeVat ?? 0) + (day.settlement?.feeVat ?? 0),
    payout: (sum.settlement?.payout ?? 0) + (day.settlement?.payout ?? 0),
  } : undefined;
  const paid = sum.payouts ?? day.payouts ? { count: (sum.payouts?.count ?? 0) + (day.payouts?.count ?? 0), amount: (sum.payouts?.amount ?? 0) + (day.payouts?.amount ?? 0), fromDays: [] } : undefined;
  return {
    ...sum,
    ...(settled ? { settlement: settled } : {}),
    ...(paid ? { payouts: paid } : {}),
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
