import { ledgerEvents, type LedgerEvent } from '../fold/ledger-events';
import type { OrderRecord } from '../fold/order-record';
import type { OwnEvent } from '../../store/procedures/inbox-outbox/own-events';
import type { OrderComputation } from './fold-checkpoints';

/** An event with the stored time (epoch ms) of the input that caused it, and its place among the batch's. */
export interface TimedEvent {
  ms: number;
  n: number;
  row: OwnEvent;
}

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
  rowOf: (event: LedgerEvent) => OwnEvent,
  into: TimedEvent[],
): void {
  let before = stored;
  const told = (next: OrderRecord, ms: number, nextJson?: string) => {
    for (const event of ledgerEvents(before, next, nextJson)) into.push({ ms, n: into.length, row: rowOf(event) });
    before = next;
  };
  for (const step of computed.steps) told(step.record, step.ms);
  told(record, computed.lastMs ?? Number.POSITIVE_INFINITY, json);
}

/** The batch's events in the order their inputs were stored, each order's own in theirs: as batches of one input each would queue them. */
export function inInputOrder(events: TimedEvent[]): OwnEvent[] {
  return events.sort((a, b) => a.ms - b.ms || a.n - b.n).map((e) => e.row);
}
