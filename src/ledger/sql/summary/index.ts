/**
 * The day's money (settling the day): its totals are written with the ledger's records
 * (`summary-writes.ts`, from the ledger's writes); these are its reads, and a day's close and
 * reopening, which run as the ledger's own transactions. One line per verb (see ../index.ts).
 */
import { closedDayOrders, closeSummaryDay, dayCloses, reopenSummaryDay } from './close-day';
import { dailySummary, dayOrders } from './daily-summary';

export const summaryWrites = {
  closeSummaryDay,
  reopenSummaryDay,
} as const;

export const summaryReads = {
  dailySummary,
  dayOrders,
  dayCloses,
  closedDayOrders,
} as const;
