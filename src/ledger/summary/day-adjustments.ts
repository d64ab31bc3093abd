import type { LaterAdjustment } from './day-close';
import { DayLines } from './day-entries';
import { addMoneyRow, netOf, noMoney, type MoneyFigures, type SummaryDay, type SummaryRow } from './summary-days';

/** A row of what moved a closed day's money after its close: booked on `day`, adjusting `adjusts`. */
export type AdjustmentRow = Omit<SummaryRow, 'simulated'> & { adjusts: string };

/**
 * The adjustments booked on each day of `days`, as lines of their own naming the closed day each
 * adjusts, and the day's net with them. A day that booked nothing else still shows them: the money
 * arrived on it. Rows kept under currency '' count in `defaultCurrency`, as the totals do.
 */
export function withAdjustments(days: readonly SummaryDay[], rows: readonly AdjustmentRow[], defaultCurrency: string): SummaryDay[] {
  if (rows.length === 0) return [...days];
  const lines = new DayLines(days);
  const byLine = new Map<SummaryDay, Map<string, MoneyFigures & { adjusts: string }>>();
  for (const row of rows) {
    const day = lines.line(row.day, row.mallId, row.currency === '' ? defaultCurrency : row.currency);
    let adjusted = byLine.get(day);
    if (!adjusted) byLine.set(day, (adjusted = new Map()));
    let money = adjusted.get(row.adjusts);
    if (!money) adjusted.set(row.adjusts, (money = { adjusts: row.adjusts, ...noMoney() }));
    addMoneyRow(money, row);
  }
  for (const [day, adjusted] of byLine) {
    day.adjustments = [...adjusted.values()].sort((a, b) => (a.adjusts < b.adjusts ? -1 : 1)).map((m) => ({ ...m, net: netOf(m) }));
    day.netWithAdjustments = day.net + day.adjustments.reduce((sum, m) => sum + m.net, 0);
  }
  return lines.list();
}

/**
 * What moved each closed day later, as its page says it: the net per closed day, mall, currency
 * and the day each adjustment was booked on.
 */
export function laterAdjustments(rows: readonly AdjustmentRow[], defaultCurrency: string): LaterAdjustment[] {
  const groups = new Map<string, { key: Omit<LaterAdjustment, 'net'>; money: MoneyFigures }>();
  for (const row of rows) {
    const currency = row.currency === '' ? defaultCurrency : row.currency;
    const id = [row.adjusts, row.day, row.mallId, currency].join('\u0000');
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { key: { adjusts: row.adjusts, on: row.day, mallId: row.mallId, currency }, money: noMoney() }));
    addMoneyRow(group.money, row);
  }
  return [...groups.values()].map(({ key, money }) => ({ ...key, net: netOf(money) }));
}
