import { currencyTotals, type SummaryLine } from './currency-totals';
import { emptySummaryDay } from './day-entries';
import type { SummaryDay } from './summary-days';

/**
 * The lines of an export of the day's money: each day's, then on the day money of a closed day
 * arrived, one line per closed day it adjusts (its figures alone, naming that day), so the file's
 * lines add up to what arrived each day and a closed day's own line stays as it was closed; then a
 * total line per currency over every line above it.
 */
export function summaryLines(days: readonly SummaryDay[]): SummaryLine[] {
  const lines = adjustedLines(days);
  return [...lines, ...currencyTotals(lines)];
}

/** The days with, after each, a line per closed day whose money arrived on it: what a total adds up. */
export function adjustedLines(days: readonly SummaryDay[]): SummaryLine[] {
  const lines: SummaryLine[] = [];
  for (const day of days) {
    lines.push(day);
    for (const { adjusts, ...money } of day.adjustments ?? []) {
      lines.push({ ...emptySummaryDay(day.date, day.mallId, day.currency), ...money, adjustsDay: adjusts });
    }
  }
  return lines;
}
