import type { OrderStatus } from '../fold/order-record';
import { daysBetween } from './kst-day';
import { summaryRangeProblem } from './summary-range';
import type { BookingKind } from './order-bookings';

/**
 * A row of the daily aggregate: a booking kind's total, or (`kind` 'status', `method` the status) a
 * change in orders by status. `simulated`: the money of orders the simulator made up, summed apart.
 */
export interface SummaryRow {
  day: string;
  mallId: string;
  currency: string;
  kind: BookingKind | 'status';
  method: string;
  simulated: boolean;
  count: number;
  amount: number;
}

export interface CountAmount {
  count: number;
  amount: number;
}

/** A day's money, in minor units. */
export interface MoneyFigures {
  payments: CountAmount & { byMethod: Record<string, CountAmount> };
  cancels: CountAmount;
  deposits: CountAmount;
  depositCancels: CountAmount;
  /** `amount` sums the known amounts; `unknownCount` of the `count` have an amount no one can know (a 51 that follows no refund). */
  refundsFailed: CountAmount & { unknownCount: number };
  /** payments + deposits − deposit cancellations − cancels and refunds (failed refunds are not in it). */
  net: number;
}

/**
 * One KST day's money of one mall in one currency, in minor units. The figures are the real
 * orders'; the simulator's made-up orders moved no money and are summed apart (`simulated`), so
 * the figure an accountant is handed is the shop's money alone.
 */
export interface SummaryDay extends MoneyFigures {
  date: string;
  mallId: string;
  currency: string;
  simulated: MoneyFigures;
  discrepancies: { opened: number; resolved: number };
  /** Orders in each status at the day's end (statuses with none left out). */
  ordersByStatus: Partial<Record<OrderStatus, number>>;
  /** The gateway's settlement statement, its fees and payouts (`settlement-figures.ts`), when it names the day. */
  settlement?: DaySettlement;
  payouts?: DayPayouts;
  /** Set when the day is closed: its figures are the ones kept at the close (`day-close.ts`). */
  closed?: { at: string; by: string; everyMall: boolean };
  /** What moved this closed day's money after its close, by the day each arrived on (booked there). */
  adjustedLater?: Array<{ on: string; net: number }>;
  /** What arrived on this day for days already closed: lines of their own, each naming the day it adjusts. */
  adjustments?: Array<MoneyFigures & { adjusts: string }>;
  /** `net` and the adjustments' nets together: the money the day's export and page total. */
  netWithAdjustments?: number;
}

/** The day's transactions as the settlement statement states them (minor units). */
export interface DaySettlement {
  count: number;
  gross: number;
  fee: number;
  feeVat: number;
  /** What the gateway says it pays out for them, whatever day it pays. */
  payout: number;
}

/** What the statement says the gateway pays out on this day, and from which transaction days. */
export interface DayPayouts {
  count: number;
  amount: number;
  /** `day` null: rows whose statement names no transaction day. */
  fromDays: Array<{ day: string | null; count: number; amount: number }>;
}

const FIGURE: Record<Exclude<BookingKind, 'discrepancy_opened' | 'discrepancy_resolved' | 'payment' | 'refund_failed_unknown'>, 'cancels' | 'deposits' | 'depositCancels' | 'refundsFailed'> = {
  cancel: 'cancels',
  deposit: 'deposits',
  deposit_cancel: 'depositCancels',
  refund_failed: 'refundsFailed',
};

/**
 * The days from `from` to `to` per mall and currency, from the aggregate's rows of those days and
 * the orders by status before `from` (`before`: status rows, summed). Rows kept under '' (orders
 * without an expectation) count in `defaultCurrency`. A day is listed when something was booked on
 * it or some order is in a status at its end.
 */
export function summaryDays(rows: readonly SummaryRow[], before: readonly SummaryRow[], range: { from: string; to: string }, defaultCurrency: string): SummaryDay[] {
  // Every caller checks the range it was given; this is the last word, before a day is listed.
  const problem = summaryRangeProblem(range.from, range.to);
  if (problem !== null) throw new RangeError(`bad range: ${problem}`);
  const keyOf = (row: SummaryRow) => `${row.mallId}\u0000${row.currency === '' ? defaultCurrency : row.currency}`;
  const byKey = new Map<string, { mallId: string; currency: string; status: Map<string, number>; days: Map<string, SummaryRow[]> }>();
  const entry = (row: SummaryRow) => {
    const key = keyOf(row);
    let found = byKey.get(key);
    if (!found) byKey.set(key, (found = { mallId: row.mallId, currency: row.currency === '' ? defaultCurrency : row.currency, status: new Map(), days: new Map() }));
    return found;
  };
  for (const row of before) {
    const { status } = entry(row);
    status.set(row.method, (status.get(row.method) ?? 0) + row.count);
  }
  for (const row of rows) {
    const { days } = entry(row);
    days.set(row.day, [...(days.get(row.day) ?? []), row]);
  }
  const result: SummaryDay[] = [];
  const calendar = daysBetween(range.from, range.to);
  for (const { mallId, currency, status, days } of [...byKey.values()].sort((a, b) => compare(a.mallId, b.mallId) || compare(a.currency, b.currency))) {
    for (const date of calendar) {
      const booked = days.get(date) ?? [];
      const day = emptyDay(date, mallId, currency);
      for (const row of booked) {
        if (row.kind === 'status') status.set(row.method, (status.get(row.method) ?? 0) + row.count);
        else if (row.count !== 0 || row.amount !== 0) addRow(day, row);
      }
      for (const [name, count] of [...status].sort(([a], [b]) => compare(a, b))) if (count !== 0) day.ordersByStatus[name as OrderStatus] = count;
      day.net = netOf(day);
      day.simulated.net = netOf(day.simulated);
      if (booked.some((row) => row.kind !== 'status' && row.count !== 0) || Object.keys(day.ordersByStatus).length > 0) result.push(day);
    }
  }
  return result;
}

export function netOf(figures: MoneyFigures): number {
  return figures.payments.amount + figures.deposits.amount - figures.depositCancels.amount - figures.cancels.amount;
}

function addRow(day: SummaryDay, row: SummaryRow): void {
  if (row.kind === 'discrepancy_opened') day.discrepancies.opened += row.count;
  else if (row.kind === 'discrepancy_resolved') day.discrepancies.resolved += row.count;
  else addMoneyRow(row.simulated ? day.simulated : day, row);
}

/** A money kind's row into `money` (a day's, its simulated orders', an adjustment's); other kinds count no money. */
export function addMoneyRow(money: MoneyFigures, row: Pick<SummaryRow, 'kind' | 'method' | 'count' | 'amount'>): void {
  if (row.kind === 'discrepancy_opened' || row.kind === 'discrepancy_resolved') return;
  if (row.kind === 'refund_failed_unknown') money.refundsFailed.unknownCount += row.count;
  else if (row.kind === 'payment') {
    add(money.payments, row);
    add((money.payments.byMethod[row.method] ??= { count: 0, amount: 0 }), row);
  } else if (row.kind !== 'status') add(money[FIGURE[row.kind]], row);
}

function add(target: CountAmount, row: Pick<SummaryRow, 'count' | 'amount'>): void {
  target.count += row.count;
  target.amount += row.amount;
}

/** Every money figure at zero. */
export function noMoney(): MoneyFigures {
  const zero = () => ({ count: 0, amount: 0 });
  return {
    payments: { ...zero(), byMethod: {} },
    cancels: zero(), deposits: zero(), depositCancels: zero(), refundsFailed: { ...zero(), unknownCount: 0 },
    net: 0,
  };
}

function emptyDay(date: string, mallId: string, currency: string): SummaryDay {
  return { date, mallId, currency, ...noMoney(), simulated: noMoney(), discrepancies: { opened: 0, resolved: 0 }, ordersByStatus: {} };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
