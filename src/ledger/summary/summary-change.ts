import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import type { OrderRecord } from '../fold/order-record';
import { eventDaysOf } from './order-bookings';
import { summaryMove, type SummaryDelta } from './summary-delta';

/** An order whose record the ledger writes, with what it moves in the day's money. */
export interface SummaryChange {
  order: OrderKey;
  /** Its bookings less those the totals counted of it (`summaryMove`). */
  deltas: SummaryDelta[];
  /** The day its status counts from after this record: the order's header keeps it (`ledger_orders.summary_day`). */
  statusDay: string;
    /**
   * The days of the notifications this write adds (each once): the day page lists the order on
   * them, never in the totals. The list keeps each day of an order once, so a day it is listed on
   * already adds nothing, and the order's older notifications are never read again for it.
   */
  gainedDays: string[];
}

/**
 * The summary's side of a record the ledger writes. `previous`: the record stored before it, if
 * any; `addedTimes`: the own times of the notifications this write adds; `statusDay`: the day
 * its status counts from as the order's header says, null when the
 * totals do not count the order (projected before the summary existed): then its bookings are
 * added whole.
 */
export function summaryChange(order: OrderKey, record: OrderRecord, previous: OrderRecord | null, addedTimes: readonly string[], statusDay: string | null): SummaryChange {
  const counted = previous === null || statusDay === null ? null : { record: previous, statusDay };
  const { deltas, statusDay: day } = summaryMove(record, previous, counted);
  return { order, deltas, statusDay: day, gainedDays: eventDaysOf(addedTimes) };
}

/** Each notification's own time, once per event id (a redelivery is the same event): the days the day page lists an order on. */
export function notificationTimes(facts: readonly LedgerFact[]): string[] {
  const times = new Map<string, string>();
  for (const fact of facts) if (fact.kind === 'notification' && !times.has(fact.id)) times.set(fact.id, fact.at);
  return [...times.values()];
}
