import { ledgerEvents, type LedgerEvent } from '../fold/ledger-events';
import type { LedgerFact } from '../fold/ledger-facts';
import type { OrderRecord } from '../fold/order-record';
import type { OrderComputation } from './order-computation';

/** An event to queue, with the stored time (epoch ms) of the input that caused it and its place among the batch's. */
export interface TimedEvent {
  ms: number;
  n: number;
  event: LedgerEvent;
  mallId: string;
  /** The pgCno it is filed under (`eventPgCno`). */
  pgCno: string;
}

/** An event as the store queues it: its order's mall and the pgCno it is filed under beside it. */
export type QueuedEvent = Omit<TimedEvent, 'ms' | 'n'>;

/**
 * The events of one order's computation, each input announced on its own: from the stored record
 * through each step to the new record, every change a status_changed or an update of its own (a
 * consumer's stream does not depend on which inputs a batch held). A computation without new
 * inputs (a sweep, a rebuild) announces only the record, after the batch's inputs.
 */
export function inputEvents(
  stored: OrderRecord | null,
  computed: Pick<OrderComputation, 'steps' | 'lastMs'>,
  record: OrderRecord,
  json: string,
  filed: { mallId: string; pgCno: string },
  into: TimedEvent[],
): void {
  let before = stored;
  const told = (next: OrderRecord, ms: number, nextJson?: string) => {
    for (const event of ledgerEvents(before, next, nextJson)) into.push({ ms, n: into.length, event, ...filed });
    before = next;
  };
  for (const step of computed.steps) told(step.record, step.ms);
  told(record, computed.lastMs ?? Number.POSITIVE_INFINITY, json);
}

/** The batch's events in the order their inputs were stored, each order's own in theirs: as batches of one input each would queue them. */
export function inInputOrder(events: TimedEvent[]): QueuedEvent[] {
  return events.sort((a, b) => a.ms - b.ms || a.n - b.n).map(({ event, mallId, pgCno }) => ({ event, mallId, pgCno }));
}

/**
 * The pgCno a ledger event of the order is filed under: its latest payment's (or deposit's), else
 * the highest any of its notifications names (a cancel's or refund's pgCno is its payment's), ''
 * when none does. The operator's search by pgCno finds the event beside the notifications, and
 * SQLite's unique inbox key (pg_cno, event_id) takes its entry on the leaf of the notification
 * being acked instead of a random place among the other events' ('' and a hash-like id). Computed
 * from the order's facts alone, as its record is: a retried transaction, the backfill and a rebuild
 * that send an event from the same facts file it under the same key, and the ON CONFLICT keeps one.
 */
export function eventPgCno(record: OrderRecord, factsOf: () => readonly LedgerFact[]): string {
  const paid = record.payments.at(-1)?.pgCno ?? record.deposits.at(-1)?.pgCno;
  if (paid !== undefined) return paid;
  let highest = '';
  for (const fact of factsOf()) if (fact.kind === 'notification' && fact.pgCno > highest) highest = fact.pgCno;
  return highest;
}
