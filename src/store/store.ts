import type { NormalizedEvent } from '../notifications/normalized-event';

/** One accepted-or-duplicate notification as the inbox keeps it. */
export interface InboxEntry {
  dedupKey: string;
  event: NormalizedEvent;
  /** sha256 of the decoded fields in canonical order: tells a redelivery from a conflict. */
  bodyHash: string;
  rawBody: Buffer;
  contentType: string;
}

export type RecordOutcome = 'accepted' | 'duplicate' | 'conflict';

export interface RecordResult {
  outcome: RecordOutcome;
  eventId: string;
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

export interface EventDetail extends EventRow {
  event: NormalizedEvent;
  sourceIp: string;
  contentType: string;
  rawBody: Buffer;
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
}

/**
 * The one source of truth for dedup and for the relay. Every method that resolves after
 * a write resolves only once that write is durable (fsync'ed), because the gateway is
 * acked on it.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Dedup, and on a new key write inbox + outbox in one transaction. */
  record(entry: InboxEntry): Promise<RecordResult>;
  recordRejection(entry: RejectionEntry): Promise<number>;

  /** The oldest pending rows in arrival order, due or not: the relay keeps order by waiting on the head. */
  nextPending(limit: number): Promise<OutboxRecord[]>;
  /** Several rows at once, so a batch the queue confirmed costs one commit. */
  markDelivered(seqs: readonly number[], deliveredAt: string): Promise<void>;
  markRetry(seq: number, error: string, nextAttemptAt: number): Promise<void>;
  markDead(seq: number, error: string): Promise<void>;
  /** Back to pending, first attempt; false when the id is unknown. */
  requeue(eventId: string): Promise<boolean>;
  requeueDead(): Promise<number>;
  backlog(now: number): Promise<Backlog>;

  listEvents(filter: EventFilter): Promise<EventRow[]>;
  getEvent(eventId: string): Promise<EventDetail | null>;
  listRejections(limit?: number): Promise<RejectionRow[]>;
  getRejection(id: number): Promise<RejectionRow | null>;
  markRejectionReprocessed(id: number, eventId: string, at: string): Promise<void>;
  listConflicts(limit?: number): Promise<ConflictRow[]>;
  getConflict(id: number): Promise<ConflictRow | null>;

  /**
   * True when this process may run the relay now, taking the relay lock if it is free.
   * One relay at a time keeps arrival order across replicas; a single SQLite file is always true.
   */
  holdsRelayLock(): Promise<boolean>;

  /** Throws when the store cannot serve (for /readyz). */
  ping(): Promise<void>;
  /** Called after each commit that added outbox rows, so the relay wakes without polling. */
  onNewEvents(listener: () => void): void;
  close(): Promise<void>;
}

/** The store could not commit: the gateway gets 503/5001 and will retry. */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
