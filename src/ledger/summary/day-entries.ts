import { noMoney, type SummaryDay } from './summary-days';

/** A day of one mall and currency with nothing booked: where a figure booked on no other line of that day goes. */
export function emptySummaryDay(date: string, mallId: string, currency: string): SummaryDay {
  return { date, mallId, currency, ...noMoney(), simulated: noMoney(), discrepancies: { opened: 0, resolved: 0 }, ordersByStatus: {} };
}

/**
 * The days by (date, mall, currency), finding a line or adding an empty one; `list()` answers them
 * in the summary's order (mall, currency, date).
 */
export class DayLines {
  private readonly byKey = new Map<string, SummaryDay>();

  constructor(days: readonly SummaryDay[]) {
    for (const day of days) this.byKey.set(DayLines.key(day.date, day.mallId, day.currency), day);
  }

  private static key(date: string, mallId: string, currency: string): string {
    return `${date}\u0000${mallId}\u0000${currency}`;
  }

  line(date: string, mallId: string, currency: string): SummaryDay {
    const key = DayLines.key(date, mallId, currency);
    let day = this.byKey.get(key);
    if (!day) this.byKey.set(key, (day = emptySummaryDay(date, mallId, currency)));
    return day;
  }

  list(): SummaryDay[] {
    const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return [...this.byKey.values()].sort((a, b) => compare(a.mallId, b.mallId) || compare(a.currency, b.currency) || compare(a.date, b.date));
  }
}
