import type { AlertQueries } from './types/alerts';
import type { OperatorQueries, TeamAccess } from './types/console-operators';
import type {
  AttemptDetail,
  Backlog,
  ConflictLine,
  ConflictRow,
  EventDetail,
  EventFilter,
  EventRow,
  InboxEntry,
  OutboxRecord,
  RecordResult,
  RejectionEntry,
  RejectionLine,
  RejectionRow,
  RequeueBy,
} from './types/inbox-outbox';
import type { RetentionQueries } from './types/retention';

// The types of each concern live in ./types/; importers of the store's contract find them here too.
export * from './types/console-operators';
export * from './types/inbox-outbox';
export * from './types/retention';
export * from './types/alerts';

/**
 * The one source of truth for dedup and for the relay. Every method that resolves after
 * a write resolves only once that write is durable (fsync'ed), because the gateway is
 * acked on it.
 */
export interface Store extends OperatorQueries, RetentionQueries, TeamAccess, AlertQueries {
  readonly kind: 'sqlite' | 'postgres';
  /** Dedup, and on a new key write inbox + outbox in one transaction. */
  record(entry: InboxEntry): Promise<RecordResult>;
  recordRejection(entry: RejectionEntry): Promise<number>;

  /**
   * The oldest pending rows in arrival order, due or not: the relay keeps order by waiting on the head.
   * At most `limit` rows and about `maxBytes` of event JSON (default 1 MiB), never fewer than one row.
   */
  nextPending(limit: number, maxBytes?: number): Promise<OutboxRecord[]>;
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
  /** The newest rejections without their bodies, for a list. */
  listRejectionLines(limit: number): Promise<RejectionLine[]>;
  getRejection(id: number): Promise<RejectionRow | null>;
  markRejectionReprocessed(id: number, eventId: string, at: string): Promise<void>;
  listConflicts(limit?: number): Promise<ConflictRow[]>;
  /** The newest conflicts without their bodies and events, for a list. */
  listConflictLines(limit: number): Promise<ConflictLine[]>;
  getConflict(id: number): Promise<ConflictRow | null>;

  /**
   * True when this process may run the relay now, taking the relay lock if it is free.
   * One relay at a time keeps arrival order across replicas; a single SQLite file is always true.
   */
  holdsRelayLock(): Promise<boolean>;

  /** Throws when the store cannot serve (for /readyz). */
  ping(): Promise<void>;
  /** Which database this is, however its URL is spelled (see migrations 020): /readyz reports it, the CLI compares. */
  storeId(): Promise<string | null>;
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
