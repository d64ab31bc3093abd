import type { NormalizedEvent } from '../notifications/normalized-event';

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

export interface EventDetail extends EventRow {
  event: NormalizedEvent;
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

/**
 * The one source of truth for dedup and for the relay. Every method that resolves after
 * a write resolves only once that write is durable (fsync'ed), because the gateway is
 * acked on it.
 */
export interface Store extends OperatorQueries, TeamAccess {
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

/** A page of the audit log, newest first; every filter is optional. */
export interface AuditSearch {
  /** The operator who acted: their actor rows (`kim (10.0.0.7)`, `kim (cli)`, or `kim` alone). */
  operator?: string;
  action?: string;
  /** ISO instants: rows at or after `from`, before `to`. */
  from?: string;
  to?: string;
  /** Keyset paging: rows with an id below this (the previous page's `last`). */
  before?: number;
  limit: number;
}

export interface AuditPage {
  rows: AuditRow[];
  /** The id of the last row of a full page: the next page is `before` it. Null on the last page. */
  last: number | null;
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
  searchAudit(search: AuditSearch): Promise<AuditPage>;
  /** One batch of the retention policy (see procedures/prune-expired.ts). */
  pruneExpired(cutoff: string, prunedAt: string, limit: number): Promise<PruneCounts>;
  recordRetentionRun(run: RetentionRun): Promise<void>;
  lastRetentionRun(): Promise<RetentionRun | null>;
}

export const OPERATOR_ROLES = ['viewer', 'operator', 'admin'] as const;
/** viewer reads (masked); operator also acts on events, rejections, discrepancies; admin also manages operators. */
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * The bootstrap operator: ADMIN_TOKEN (or the token generated at start) signs in as `admin` with
 * the admin role. It is not stored in `operators`: with ADMIN_TOKEN unset each replica generates
 * its own token, which an upsert at start would make the replicas overwrite in turn; the setting
 * (or its secret file) stays its one source, so a changed token needs no cleanup in the database,
 * and no CLI call can remove or lock out the way back in. Its sessions are stored like anyone's,
 * bound to the token they signed in with (`findSession`), so changing ADMIN_TOKEN ends them.
 */
export const BOOTSTRAP_OPERATOR = 'admin';

/** A session ends this long after sign-in however busy, and ADMIN_SESSION_IDLE_MINUTES after its last use. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
export const DEFAULT_SESSION_IDLE_MINUTES = 30;

export interface NewOperator {
  name: string;
  role: OperatorRole;
  /** SHA-256 (hex) of the operator's token (see operator-credentials.ts); null for a single sign-on operator. */
  tokenHash: string | null;
  createdAt: string;
}

/** An operator as listed: never the token's hash. */
export interface OperatorRow {
  name: string;
  role: OperatorRole;
  /** Signs in through ADMIN_AUTH_HEADER and has no token. */
  sso: boolean;
  createdAt: string;
  /** When the current token was issued (added or rotated); null for single sign-on. */
  tokenSetAt: string | null;
}

/** Who a token or a single sign-on name signs in as. */
export interface OperatorIdentity {
  name: string;
  role: OperatorRole;
  sso: boolean;
}

export type AddOperatorOutcome = 'added' | 'exists';
/** `sso`: the operator signs in through single sign-on and has no token to replace. */
export type RotateTokenOutcome = 'rotated' | 'sso' | 'unknown';

export interface RemovedOperator {
  removed: boolean;
  sessionsEnded: number;
}

export interface NewSession {
  /** SHA-256 (hex) of the session id the cookie carries: the id itself never reaches the database. */
  idHash: string;
  operator: string;
  /** The synchronizer token of the session's forms (not a credential alone: it is useless without the cookie). */
  csrfToken: string;
  /** Hash of the token signed in with, null through single sign-on: ties the bootstrap admin's session to ADMIN_TOKEN. */
  tokenHash: string | null;
  /** Epoch ms. */
  now: number;
  /** The console's language chosen before signing in (the sign-in page's switch); null: the browser's. */
  locale?: string | null;
}

/** How long sessions live: idle from ADMIN_SESSION_IDLE_MINUTES, absolute SESSION_ABSOLUTE_MS. */
export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

export interface SessionCheck extends SessionLimits {
  /** Epoch ms, from the caller's clock (tests inject one). */
  now: number;
  /** Hash of the bootstrap token now in force: a bootstrap session signed in with another one is over. */
  bootstrapTokenHash: string | null;
}

/** A live session and who it is, the role read from the operator record at this request. */
export interface SessionRecord {
  operator: string;
  role: OperatorRole;
  /** Signed in by the sign-on proxy's header rather than a token: the proxy, not the cookie, says who is there. */
  throughSignOn: boolean;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  /** The console's language the session chose; null: the browser's Accept-Language decides. */
  locale: string | null;
}

/**
 * Operators and console sessions, in the database so every replica knows them and a restart keeps
 * them. Hashes come in already made (operator-credentials.ts): tokens and session ids
 * never cross into the store.
 */
export interface TeamAccess {
  addOperator(operator: NewOperator): Promise<AddOperatorOutcome>;
  listOperators(): Promise<OperatorRow[]>;
  /** The operator a single sign-on proxy names; null when unknown. */
  findOperator(name: string): Promise<OperatorIdentity | null>;
  /** The token operator whose token hashes to `tokenHash`; null when none (the bootstrap admin is the caller's to check). */
  findOperatorByTokenHash(tokenHash: string): Promise<OperatorIdentity | null>;
  /** Replaces the token's hash and ends the operator's sessions (a token is replaced because it may have leaked). */
  rotateOperatorToken(name: string, tokenHash: string, at: string): Promise<RotateTokenOutcome>;
  /** Deletes the operator and ends their sessions at once, in one transaction. */
  removeOperator(name: string): Promise<RemovedOperator>;
  createSession(session: NewSession): Promise<void>;
  /** The live session with that id hash, or null: expired, ended, or its operator removed. */
  findSession(idHash: string, check: SessionCheck): Promise<SessionRecord | null>;
  /** Marks the session used at `now`; false when it had already expired or ended. */
  touchSession(idHash: string, now: number, limits: SessionLimits): Promise<boolean>;
  /** The session's language (the header's switch); false when there is no such session. */
  setSessionLocale(idHash: string, locale: string | null): Promise<boolean>;
  /** Signing out: false when there was no such session. */
  endSession(idHash: string): Promise<boolean>;
  endSessionsOf(operator: string): Promise<number>;
  /** Deletes every session expired at `now`; the count deleted. */
  pruneExpiredSessions(now: number, limits: SessionLimits): Promise<number>;
}
