import type { ConflictLink, DeliveryAttempt, EventRow, OutboxStatus, RequeueBy } from './inbox-outbox';

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

/** A listed event as an export writes it: the row, its stored event (JSON text) and its order's currency. */
export interface EventExportRow extends EventRow {
  eventJson: string;
  /** The order's expectation's currency; null when the order has none (the mall's default applies). */
  orderCurrency: string | null;
}

export interface EventExportPage {
  rows: EventExportRow[];
  /** The inbox seq of a full page's last row: the next page is before it. Null on the last page. */
  last: number | null;
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

/** What the operator console and the CLI read and change beyond the relay's needs (one query layer, two faces). */
export interface OperatorQueries {
  searchEvents(search: EventSearch): Promise<EventRow[]>;
  /** The same list for an export: a page before the inbox seq `before`, newest first. */
  exportEventsPage(search: Omit<EventSearch, 'limit' | 'offset'>, before: number | null, limit: number): Promise<EventExportPage>;
  /** Back to pending: the dead events the filter selects. */
  requeueDeadMatching(search: Omit<EventSearch, 'limit' | 'offset'>, by?: RequeueBy): Promise<number>;
  /** The event's delivery attempts and requeues, oldest first. */
  deliveryAttempts(eventId: string): Promise<DeliveryAttempt[]>;
  eventCounts(): Promise<EventCounts>;
  problemsSince(since: string): Promise<ProblemCounts>;
  eventActivity(since: string): Promise<ActivityBucket[]>;
  conflictsOfEvent(eventId: string): Promise<ConflictLink[]>;
  recordAudit(entry: AuditEntry): Promise<number>;
  listAudit(limit: number, offset?: number): Promise<AuditRow[]>;
  searchAudit(search: AuditSearch): Promise<AuditPage>;
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

export interface NewOperator {
  name: string;
  role: OperatorRole;
  /** SHA-256 (hex) of the operator's token (see operator-credentials.ts); null for a single sign-on operator. */
  tokenHash: string | null;
  createdAt: string;
  /** May cancel payments from the console (`--can-cancel`); an admin may whatever this says. */
  canCancel?: boolean;
}

/** An operator as listed: never the token's hash. */
export interface OperatorRow {
  name: string;
  role: OperatorRole;
  /** Signs in through ADMIN_AUTH_HEADER and has no token. */
  sso: boolean;
  /** Given the right to cancel payments from the console (`--can-cancel`). */
  canCancel: boolean;
  createdAt: string;
  /** When the current token was issued (added or rotated); null for single sign-on. */
  tokenSetAt: string | null;
}

/** Who a token or a single sign-on name signs in as. */
export interface OperatorIdentity {
  name: string;
  role: OperatorRole;
  sso: boolean;
  /** Given the right to cancel payments from the console (`--can-cancel`, migration 021). */
  canCancel: boolean;
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
