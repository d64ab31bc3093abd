import type { OrderKey } from '../fold/ledger-facts';
import { conflictFacts, inboxEventFact, readInputFact, refusalFactOf, type StoredConflict, type StoredRejection } from './input-facts';
import type { OrderFact } from './loaded-order';

/** A gateway notification as stored in the inbox (its trace context asked for with tracing on). */
export interface StoredNotification {
  seq: number | string;
  mall_id: string;
  shop_order_no: string | null;
  event_json: string;
  trace_context?: string | null;
}

/** One of the ledger's other inputs as stored (an expectation, a cancellation, a resolution). */
export interface StoredInput {
  seq: number | string;
  mall_id: string;
  shop_order_no: string;
  fact_json: string;
}

/** What a projector batch read after its position, in the order it was stored. */
export interface StoredRows {
  notifications: StoredNotification[];
  inputs: StoredInput[];
  conflicts: StoredConflict[];
  rejections: StoredRejection[];
}

/** An input that names its order but does not read: kept with it, and the order marked, until a repair. */
export interface UnreadInput {
  order: OrderKey;
  /** A ledger input's seq, or a notification's inbox seq negated (`failedNotificationSeq`). */
  seq: number;
  json: string;
  error: string;
}

export interface BatchFacts {
  facts: OrderFact[];
  unread: UnreadInput[];
  /** Stored rows that name no order and cannot be read: counted and passed. */
  errors: string[];
  /** Each notification's stored event, parsed once: for its fact and its search row. */
  events: unknown[];
  /** The stored trace contexts of the notifications, in seq order (asked for with tracing on). */
  traceContexts: string[];
}

/** The key a notification that cannot be read is kept under: its inbox seq, negated (a ledger input's seq is positive). */
const failedNotificationSeq = (inboxSeq: number | string): number => -Number(inboxSeq);

/**
 * The facts of a batch's stored rows: each notification's, each conflicting redelivery's (one per
 * order it names), each refusal's that names an order here, each other input's. A row that cannot
 * be read never stops the others: one that names its order marks that order until it is repaired,
 * one that names none is counted and passed.
 */
export function batchFacts(rows: StoredRows): BatchFacts {
  const made: BatchFacts = { facts: [], unread: [], errors: [], events: [], traceContexts: [] };
  for (const row of rows.notifications) {
    if (row.trace_context) made.traceContexts.push(row.trace_context);
    let fact: ReturnType<typeof inboxEventFact>;
    try {
      const event = JSON.parse(row.event_json) as unknown;
      made.events.push(event);
      fact = inboxEventFact(event);
    } catch (error) {
      if (row.shop_order_no === null) made.errors.push(`inbox row ${row.seq}: its stored event cannot be read`);
      else made.unread.push({ order: { mallId: row.mall_id, shopOrderNo: row.shop_order_no }, seq: failedNotificationSeq(row.seq), json: row.event_json, error: (error as Error).message });
      continue;
    }
    if (fact !== null) made.facts.push(fact);
  }
  for (const row of rows.conflicts) {
    try {
      made.facts.push(...conflictFacts(row));
    } catch (error) {
      made.errors.push(`conflict ${row.id}: ${(error as Error).message}`);
    }
  }
  for (const row of rows.rejections) {
    try {
      const fact = refusalFactOf(row);
      if (fact !== null) made.facts.push(fact);
    } catch {
      // A body that cannot be decoded names no order: the rejection is all there is of it.
    }
  }
  for (const row of rows.inputs) {
    const order = { mallId: row.mall_id, shopOrderNo: row.shop_order_no };
    try {
      made.facts.push({ order, fact: readInputFact(row.fact_json), json: row.fact_json });
    } catch (error) {
      made.unread.push({ order, seq: Number(row.seq), json: row.fact_json, error: (error as Error).message });
    }
  }
  return made;
}

/**
 * The time a batch is computed as of: its latest input's stored time, as the ack computed it when
 * the ledger rode on it, so a batch computed again after a crash gives the same records and the
 * same event ids. The grace periods that pass later are the sweep's, on the clock.
 */
export function batchTime(facts: readonly OrderFact[], now: string): string {
  return facts.reduce((latest, f) => (f.fact.recordedAt > latest ? f.fact.recordedAt : latest), '') || now;
}
