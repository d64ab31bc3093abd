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
  /** The days it has an event on that it had none on before: the day page's, never in the totals. */
  gainedDays: string[];
}

/** The own times of the order's notifications: those its stored facts hold, and those this write adds. */
export interface EventTimes {
  held: readonly string[];
  added: readonly string[];
}

/**
 * The summary's side of a record the ledger writes. `previous`: the record stored before it, if
 * any; `statusDay`: the day its status counts from as the order's header says, null when the
 * totals do not count the order (projected before the summary existed): then its bookings are
 * added whole.
 */
export function summaryChange(order: OrderKey, record: OrderRecord, previous: OrderRecord | null, eventTimes: EventTimes, statusDay: string | null): SummaryChange {
  const counted = previous === null || statusDay === null ? null : { record: previous, statusDay };
  const { deltas, statusDay: day } = summaryMove(record, previous, counted);
  const had = new Set(eventDaysOf(eventTimes.held));
  return { order, deltas, statusDay: day, gainedDays: eventDaysOf(eventTimes.added).filter((d) => !had.has(d)) };
}

/** Each notification's own time, once per event id (a redelivery is the same event): the days the day page lists an order on. */
export function notificationTimes(facts: readonly LedgerFact[]): string[] {
  const times = new Map<string, string>();
  for (const fact of facts) if (fact.kind === 'notification' && !times.has(fact.id)) times.set(fact.id, fact.at);
  return [...times.values()];
}
