import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import type { Discrepancy, OrderRecord } from '../fold/order-record';
import type { SummaryChange } from '../summary/summary-change';
import type { QueuedEvent } from './order-events';
import type { ListWrite } from './record-items';

/** Where an order's fold now stands, to store beside its row: the settings it was folded under, its last moment, this write's token. */
export interface StoredCheckpoint {
  order: OrderKey;
  settings: string;
  lastMoment: number | null;
  version: string;
}

/** An order's record to write (null while nothing is known of it: a row for its facts alone). */
export interface RecordWrite {
  order: OrderKey;
  record: OrderRecord | null;
  /** The record's header, as the order's row keeps it (`record-items.ts`). */
  header: string | null;
  /** What its lists write to their items, each from its first changed position. */
  items: ListWrite[];
  sweepAt: number | null;
  /** The day its status counts from in the day's money (`SummaryChange.statusDay`); null while nothing is known of it. */
  summaryDay: string | null;
}

export interface Recomputed {
  order: OrderKey;
  record: OrderRecord | null;
  /** The record or its sweep time differ from what was stored. */
  changed: boolean;
  /** Why the ledger could not apply the order's inputs (its record is then a `ledger_error`), else null. */
  error: string | null;
  /** The own times of the order's notifications (what the day page lists it by), read when asked. */
  eventTimes: () => string[];
  /** The day its stored status counts from in the day's money, as loaded; null when the totals do not count it. */
  summaryDay: string | null;
}

/**
 * Everything a batch of new facts changes in the orders it loaded, as plain data: what to store and
 * what to send. The store turns it into statements (src/ledger/sql/ledger-writes.ts) and writes it
 * in one transaction; nothing here knows a table.
 */
export interface OrderChanges {
  /** New facts, each once, in the order given. */
  facts: Array<{ order: OrderKey; fact: LedgerFact; json: string }>;
  /** Records that changed, and new orders' rows, in the order the orders were loaded. */
  records: RecordWrite[];
  /** Discrepancies whose stored row differs from the record's (new, moved, resolved). */
  discrepancies: Array<{ order: OrderKey; discrepancy: Discrepancy }>;
  /** Discrepancy ids a record no longer has (the settings changed before a rebuild). */
  gone: string[];
  checkpoints: StoredCheckpoint[];
  /** Orders whose stored checkpoint no longer holds (a `ledger_error`): it goes. */
  forgotten: OrderKey[];
  /** What each record written moves in the day's money. */
  summary: SummaryChange[];
  /** Kept inputs that now applied: their rows go. */
  applied: number[];
  /** The events to queue, in the order their inputs were stored. */
  events: QueuedEvent[];
  results: Recomputed[];
}
