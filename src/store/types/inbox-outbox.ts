import type { NormalizedEvent } from '../../notifications/normalized-event';

/** One accepted-or-duplicate notification as the inbox keeps it. */
export interface InboxEntry {
  dedupKey: string;
  event: NormalizedEvent;
  /** sha256 of the decoded fields in canonical order: tells a redelivery from a conflict. */
  bodyHash: string;
  rawBody: Buffer;
  contentType: string;
  /** With tracing on: the stored span's W3C trace context (JSON), kept with the outbox row. */
  traceContext?: string | null;
}

export type RecordOutcome = 'accepted' | 'duplicate' | 'conflict';

export interface RecordResult {
  outcome: RecordOutcome;
  eventId: string;
  /** Only for an entry with a trace context (for its span): how many notifications its commit held. */
  batchSize?: number;
}

export interface RejectionEntry {
  receivedAt: string;
  sourceIp: string;
  contentType: string | null;
  /** Null only when the body was too large to read. */
  rawBody: Buffer | null;
  httpStatus: number;
  reason: string;
}

export type OutboxStatus = 'pending' | 'delivered' | 'dead';

export interface OutboxRecord {
  seq: number;
  eventId: string;
  eventType: string;
  receivedAt: string;
  attempts: number;
  /** Epoch ms before which a retry must not be tried. */
  nextAttemptAt: number;
  /** The stored event JSON text, unparsed, so the relay forwards exactly what was stored. */
  eventJson: string;
  /** The W3C trace context (traceparent[;tracestate]) of the span that stored it; null (or absent) with tracing off. */
  traceContext?: string | null;
}

export type AttemptOutcome = 'delivered' | 'retry' | 'dead' | 'requeued';

/** One entry of an event's delivery history (the console shows every delivery attempt and the last error). */
export interface DeliveryAttempt {
  id: number;
  /** The relay's attempt number in its run (1 again after a requeue); null on a requeue entry. */
  attempt: number | null;
  at: string;
  outcome: AttemptOutcome;
  /** As the relay stored it (unmasked: mask before showing); null once the retention policy pruned it. */
  error: string | null;
  /** The publisher kind (`amqp`, `file`, …) when the caller said which. */
  publisher: string | null;
  /** A retry's earliest next attempt. */
  retryAt: string | null;
  /** Who requeued it, when the console or CLI knows. */
  actor: string | null;
  prunedAt: string | null;
}

/** Optional detail of an attempt's outcome; `at` defaults to now. */
export interface AttemptDetail {
  at?: string;
  publisher?: string | null;
}

/** Who requeued and when (`at` defaults to now), kept in the delivery history. */
export interface RequeueBy {
  at?: string;
  actor?: string | null;
}

export interface Backlog {
  pending: number;
  dead: number;
  /** Age of the oldest undelivered (pending) event, null when there is none. */
  oldestPendingAgeMs: number | null;
}

export interface EventRow {
  seq: number;
  eventId: string;
  type: string;
  notiType: string;
  mallId: string;
  pgCno: string;
  shopOrderNo: string | null;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  receivedAt: string;
  deliveredAt: string | null;
  redeliveries: number;
}

/** Who wrote an inbox row (inbox.origin): the gateway's notification, or the service's own event. */
export type InboxOrigin = 'gateway' | 'ledger' | 'command';

export interface EventDetail extends EventRow {
  event: NormalizedEvent;
  origin: InboxOrigin;
  sourceIp: string;
  contentType: string;
  rawBody: Buffer;
  /** When the retention policy removed the raw body and the event's data; null while they are kept. */
  prunedAt: string | null;
}

export interface EventFilter {
  status?: OutboxStatus;
  type?: string;
  shopOrderNo?: string;
  /** ISO timestamp: events received at or after it. */
  since?: string;
  limit?: number;
}

export interface RejectionRow extends RejectionEntry {
  id: number;
  reprocessedAt: string | null;
  reprocessedEventId: string | null;
}

/**
 * A rejection as a list of them shows it: without its body, which only its own page needs. The
 * console's list of 200 carried up to 200 bodies of 64 KiB, copied by the event loop from the
 * reader thread and again to the page thread.
 */
export type RejectionLine = Pick<RejectionRow, 'id' | 'receivedAt' | 'sourceIp' | 'httpStatus' | 'reason' | 'reprocessedEventId'>;

/** A conflicting redelivery as a list of them shows it: its order number, not its body and event (see RejectionLine). */
export type ConflictLine = Pick<ConflictRow, 'id' | 'eventId' | 'receivedAt' | 'sourceIp'> & { shopOrderNo: string | null };

/** A conflicting redelivery as the stored event's page links to it. */
export type ConflictLink = Pick<ConflictRow, 'id' | 'receivedAt' | 'sourceIp'>;

export interface ConflictRow {
  id: number;
  eventId: string;
  dedupKey: string;
  receivedAt: string;
  sourceIp: string;
  contentType: string;
  rawBody: Buffer;
  /** The conflicting redelivery, normalized the same way as the stored event. */
  event: NormalizedEvent;
  /** When the retention policy removed the raw body and the event's data; null while they are kept. */
  prunedAt: string | null;
}
