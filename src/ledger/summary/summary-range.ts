import { dayRangeIssue, dayRangeProblem, type DayRangeIssue } from '../../calendar-day';

/** A summary names at most about a year of days: one answer, one page, one export. */
const MAX_SUMMARY_DAYS = 366;

/**
 * What is wrong with a range of KST days, in words for the caller; null when it is a range to
 * answer. Counted from the two dates, before any day of it is listed.
 */
export function summaryRangeProblem(from: string, to: string): string | null {
  return dayRangeProblem(from, to, MAX_SUMMARY_DAYS);
}

/** The same, for a page that says it in its own language. */
export function summaryRangeIssue(from: string, to: string): DayRangeIssue | null {
  return dayRangeIssue(from, to, MAX_SUMMARY_DAYS);
}
