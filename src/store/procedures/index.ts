/**
 * Every store operation by name. The SQLite writer runs in a worker thread and finds a write by
 * its name here; reads run wherever the driver likes (a read connection, a pool).
 *
 * Adding a feature's table and queries (see ../README.md):
 *   1. migrations/sqlite/NNN_name.sql and migrations/postgres/NNN_name.sql (same NNN, gaps allowed);
 *   2. one procedure per verb in this folder: `function* verb(args): Procedure<Result>` that
 *      `yield*`s get/all/run with portable SQL and `?` placeholders;
 *   3. one line below, in `writes` (runs in a transaction, group-committed, durable when it
 *      resolves) or `reads` (one snapshot per statement, never waits behind the writer);
 *   4. a method on your own interface calling `driver.write('verb', …)` / `driver.read('verb', …)`.
 * Arguments and results cross a worker boundary: plain data, Buffers, no functions or classes.
 */
import { conflictsOfEvent } from './conflicts-of-event';
import { addOperator } from './add-operator';
import { createSession } from './create-session';
import { endSession } from './end-session';
import { endSessionsOf } from './end-sessions-of';
import { findOperator } from './find-operator';
import { findOperatorByTokenHash } from './find-operator-by-token-hash';
import { findSession } from './find-session';
import { listOperators } from './list-operators';
import { pruneExpiredSessions } from './prune-expired-sessions';
import { removeOperator } from './remove-operator';
import { rotateOperatorToken } from './rotate-operator-token';
import { touchSession } from './touch-session';
import { setSessionLocale } from './set-session-locale';
import { eventActivity } from './event-activity';
import { eventCounts } from './event-counts';
import { lastRetentionRun } from './last-retention-run';
import { storeId } from './store-id';
import { listAudit } from './list-audit';
import { searchAudit } from './search-audit';
import { listDeliveryAttempts } from './list-delivery-attempts';
import { problemsSince } from './problems-since';
import { pruneExpired } from './prune-expired';
import { recordAudit } from './record-audit';
import { recordRetentionRun } from './record-retention-run';
import { requeueDeadMatching } from './requeue-dead-matching';
import { searchEvents } from './search-events';
import { backlog } from './backlog';
import { beginCommandAttempt } from './begin-command-attempt';
import { countCommandsByState, countDueCommands, countWorkingCommandsSince } from './count-commands';
import { createCommand } from './create-command';
import { finishCommandAttempt } from './finish-command-attempt';
import { getCommand } from './get-command';
import { commandTraceContext } from './command-trace-context';
import { leaseDueCommands } from './lease-due-commands';
import { listCommandAttempts } from './list-command-attempts';
import { listCommands } from './list-commands';
import { releaseCommandLeases } from './release-command-leases';
import { retryFailedCommand } from './retry-failed-command';
import { getConflict } from './get-conflict';
import { getEvent } from './get-event';
import { getRejection } from './get-rejection';
import { listConflicts } from './list-conflicts';
import { listEvents } from './list-events';
import { listRejections } from './list-rejections';
import { markDead } from './mark-dead';
import { markDelivered } from './mark-delivered';
import { markRejectionReprocessed } from './mark-rejection-reprocessed';
import { markRetry } from './mark-retry';
import { nextPending } from './next-pending';
import { probeWrite } from './probe-write';
import type { Procedure } from './procedure';
import { recordNotification } from './record-notification';
import { recordRejection } from './record-rejection';
import { requeue } from './requeue';
import { requeueDead } from './requeue-dead';
import { findOrders, getOrder } from './get-order';
import { listDiscrepancies, openDiscrepancyCounts, openDiscrepancyCountsByOrigin } from './list-discrepancies';
import { ledgerBackfillNeeded } from './ledger-backfill-needed';
import { countOrdersWithStatus, listOrders, orderStatusCounts } from './list-orders';
import { putExpectation } from './put-expectation';
import { rebuildLedger } from './rebuild-ledger';
import { backfillLedger } from './backfill-ledger';
import { resolveDiscrepancy } from './resolve-discrepancy';
import { sweepLedger } from './sweep-ledger';
import { projectLedger } from './project-ledger';
import { ledgerLag, ledgerPosition } from './ledger-position';

export const writes = {
  recordNotification,
  recordRejection,
  markDelivered,
  markRetry,
  markDead,
  requeue,
  requeueDead,
  markRejectionReprocessed,
  createCommand,
  beginCommandAttempt,
  finishCommandAttempt,
  leaseDueCommands,
  releaseCommandLeases,
  retryFailedCommand,
  probeWrite,
  // operator console and CLI
  requeueDeadMatching,
  recordAudit,
  pruneExpired,
  recordRetentionRun,
  // operators and console sessions
  addOperator,
  rotateOperatorToken,
  removeOperator,
  createSession,
  touchSession,
  setSessionLocale,
  endSession,
  endSessionsOf,
  pruneExpiredSessions,
  // the payment ledger
  putExpectation,
  resolveDiscrepancy,
  // the ledger's own transactions (driver.ledgerWrite): the projector's batches and what recomputes records
  projectLedger,
  sweepLedger,
  rebuildLedger,
  backfillLedger,
} as const;

export const reads = {
  nextPending,
  backlog,
  listEvents,
  getEvent,
  listRejections,
  getRejection,
  listConflicts,
  getConflict,
  getCommand,
  commandTraceContext,
  listCommands,
  listCommandAttempts,
  countCommandsByState,
  countWorkingCommandsSince,
  countDueCommands,
  // operator console and CLI
  searchEvents,
  eventCounts,
  problemsSince,
  eventActivity,
  conflictsOfEvent,
  listDeliveryAttempts,
  listAudit,
  searchAudit,
  lastRetentionRun,
  storeId,
  // operators and console sessions
  listOperators,
  findOperator,
  findOperatorByTokenHash,
  findSession,
  // the payment ledger
  getOrder,
  findOrders,
  listOrders,
  orderStatusCounts,
  listDiscrepancies,
  openDiscrepancyCounts,
  openDiscrepancyCountsByOrigin,
  ledgerBackfillNeeded,
  ledgerPosition,
  ledgerLag,
  countOrdersWithStatus,
} as const;

/**
 * Reads that stay cheap however large the store grows, each an index search or the few rows of a
 * partial index: the relay's head, the backlog of readiness and metrics, the command worker's poll,
 * a command by its key, a console session by its id hash on every console request, the start's
 * look for notifications the ledger backfill has not reached (ledger-backfill-needed.ts)
 * (test/store/query-plans.test.ts holds the outbox ones and the session's to that). SQLite runs
 * these on the main thread, where they cost less than a message to another thread. Every other read
 * may walk many rows (an operator's filter, a count over every command ever sent) and SQLite runs it
 * on its reader thread, so the acks on the event loop never wait for it.
 */
export const loopReads: ReadonlySet<ReadName> = new Set<ReadName>(['nextPending', 'backlog', 'countDueCommands', 'getCommand', 'findSession', 'ledgerPosition', 'ledgerBackfillNeeded']);

/**
 * Writes of the ledger's tables (records, facts, discrepancies), run by `driver.ledgerWrite`: on
 * PostgreSQL in a transaction of their own that takes the ledger's lock first and the outbox-order
 * lock only to queue events, so the acks' transactions never wait for their reads and fold.
 */
export const LEDGER_WRITES = ['projectLedger', 'sweepLedger', 'rebuildLedger', 'backfillLedger'] as const;
export type LedgerWriteName = (typeof LEDGER_WRITES)[number];

export type Writes = typeof writes;
export type Reads = typeof reads;
export type WriteName = keyof Writes;
export type ReadName = keyof Reads;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyProcedureFn = (...args: any[]) => Procedure<unknown>;
export type ResultOf<F extends AnyProcedureFn> = ReturnType<F> extends Procedure<infer R> ? R : never;

/** Looks a procedure up by name (a worker gets names, not functions). */
export function procedureNamed(name: string): AnyProcedureFn | undefined {
  if (Object.hasOwn(writes, name)) return writes[name as WriteName] as AnyProcedureFn;
  if (Object.hasOwn(reads, name)) return reads[name as ReadName] as AnyProcedureFn;
  return undefined;
}
