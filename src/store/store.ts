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

export type AttemptOutcome = 'delivered' | 'retry' | 'dead' | 'requeued';

/** One entry of an event's delivery history (SPEC 6: "every delivery attempt and the last error"). */
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
export interface Store extends OperatorQueries {
  readonly kind: 'sqlite' | 'postgres';
  /** Dedup, and on a new key write inbox + outbox in one transaction. */
  record(entry: InboxEntry): Promise<RecordResult>;
  recordRejection(entry: RejectionEntry): Promise<number>;

  /** The oldest pending rows in arrival order, due or not: the relay keeps order by waiting on the head. */
  nextPending(limit: number): Promise<OutboxRecord[]>;
  /** Several rows at once, so a batch the queue confirmed costs one commit. */
  /** Each also adds the attempt to the event's delivery history in the same transaction. */
  markDelivered(seqs: readonly number[], deliveredAt: string, publisher?: string | null): Promise<void>;
  markRetry(seq: number, error: string, nextAttemptAt: number, detail?: AttemptDetail): Promise<void>;
  markDead(seq: number, error: string, detail?: AttemptDetail): Promise<void>;
  /** Back to pending, first attempt (the history stays, with a requeue entry); false when the id is unknown. */
  requeue(eventId: string, by?: RequeueBy): Promise<boolean>;
  requeueDead(by?: RequeueBy): Promise<number>;
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

/** The operator console's event filter (the CLI's `events list` is the narrower EventFilter). */
export interface EventSearch {
  /** shopOrderNo, pgCno or event id, matched exactly. */
  query?: string;
  status?: OutboxStatus;
  /** Event type (`payment.approved`) or notiType (`10`). */
  type?: string;
  /** ISO timestamps: received at or after `from`, before `to`. */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export interface EventCounts {
  pending: number;
  delivered: number;
  dead: number;
}

export interface ProblemCounts {
  rejections: number;
  conflicts: number;
}

/** Notifications of one type received in one UTC hour (`hour` is "2026-11-21T03"). */
export interface ActivityBucket {
  hour: string;
  type: string;
  count: number;
}

/** One operator action: who (the name given at sign-in and the address), what, when. */
export interface AuditEntry {
  at: string;
  actor: string;
  action: string;
  subject: string | null;
  detail: string | null;
}

export interface AuditRow extends AuditEntry {
  id: number;
}

export interface PruneCounts {
  events: number;
  rejections: number;
  conflicts: number;
}

/** One run of the retention policy: rows received before `cutoff` lost their bodies and data. */
export interface RetentionRun extends PruneCounts {
  ranAt: string;
  cutoff: string;
}

/** What the operator console and the CLI read and change beyond the relay's needs (one query layer, two faces). */
export interface OperatorQueries {
  searchEvents(search: EventSearch): Promise<EventRow[]>;
  /** Back to pending: the dead events the filter selects. */
  requeueDeadMatching(search: Omit<EventSearch, 'limit' | 'offset'>, by?: RequeueBy): Promise<number>;
  /** The event's delivery attempts and requeues, oldest first. */
  deliveryAttempts(eventId: string): Promise<DeliveryAttempt[]>;
  eventCounts(): Promise<EventCounts>;
  problemsSince(since: string): Promise<ProblemCounts>;
  eventActivity(since: string): Promise<ActivityBucket[]>;
  conflictsOfEvent(eventId: string): Promise<ConflictRow[]>;
  recordAudit(entry: AuditEntry): Promise<number>;
  listAudit(limit: number, offset?: number): Promise<AuditRow[]>;
  /** One batch of the retention policy (see procedures/prune-expired.ts). */
  pruneExpired(cutoff: string, prunedAt: string, limit: number): Promise<PruneCounts>;
  recordRetentionRun(run: RetentionRun): Promise<void>;
  lastRetentionRun(): Promise<RetentionRun | null>;
}
