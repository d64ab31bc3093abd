/**
 * The day's money (settling the day): its totals are written with the ledger's records
 * (`summary-writes.ts`, from the ledger's writes); these are its reads. One line per verb (see ../index.ts).
 */
import { dailySummary, dayOrders } from './daily-summary';

export const summaryReads = {
  dailySummary,
  dayOrders,
} as const;
