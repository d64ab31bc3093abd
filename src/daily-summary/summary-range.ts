import { daysBetween, isCalendarDay } from './kst-day';

/** A summary names at most about a year of days: one answer, one page, one export. */
const MAX_SUMMARY_DAYS = 366;

/** What is wrong with a range of KST days, in words for the caller; null when it is a range to answer. */
export function summaryRangeProblem(from: string, to: string): string | null {
  if (!isCalendarDay(from)) return `from ${JSON.stringify(from)} is not a calendar day (YYYY-MM-DD, a KST date)`;
  if (!isCalendarDay(to)) return `to ${JSON.stringify(to)} is not a calendar day (YYYY-MM-DD, a KST date)`;
  if (from > to) return `from ${from} is after to ${to}`;
  if (daysBetween(from, to).length > MAX_SUMMARY_DAYS) return `from ${from} to ${to} is more than ${MAX_SUMMARY_DAYS} days; ask for a shorter range`;
  return null;
}
