/**
 * Every store operation by name. The SQLite writer runs in a worker thread and finds a write by
 * its name here; reads run wherever the driver likes (a read connection, a pool).
 *
 * Adding a feature's table and queries (see ../README.md):
 *   1. migrations/sqlite/NNN_name.sql and migrations/postgres/NNN_name.sql (same NNN, gaps allowed);
 *   2. one procedure per verb, in the folder of its concern (inbox-outbox/, commands/,
 *      console-operators/, retention/, ledger/): `function* verb(args): Procedure<Result>` that
 *      `yield*`s get/all/run with portable SQL and `?` placeholders;
 *   3. one line in that folder's index.ts, in its `…Writes` (runs in a transaction,
 *      group-committed, durable when it resolves) or `…Reads` (one snapshot per statement, never
 *      waits behind the writer); a new concern is a new folder and one spread line below;
 *   4. a method on your own interface calling `driver.write('verb', …)` / `driver.read('verb', …)`.
 * Arguments and results cross a worker boundary: plain data, Buffers, no functions or classes.
 */
import { alertsReads, alertsWrites } from './alerts';
import { commandsReads, commandsWrites } from './commands';
import { consoleOperatorsReads, consoleOperatorsWrites } from './console-operators';
import { inboxOutboxReads, inboxOutboxWrites } from './inbox-outbox';
import { ledgerReads, ledgerWrites } from '../../ledger/sql';
import { reconciliationReads, reconciliationWrites } from '../../reconciliation/sql';
import { retentionReads, retentionWrites } from './retention';
import { summaryReads, summaryWrites } from '../../ledger/sql/summary';
import type { Procedure } from './procedure';

export const writes = {
  ...inboxOutboxWrites,
  ...commandsWrites,
  ...consoleOperatorsWrites,
  ...retentionWrites,
  ...ledgerWrites,
  ...alertsWrites,
  ...summaryWrites,
  ...reconciliationWrites,
} as const;

export const reads = {
  ...inboxOutboxReads,
  ...commandsReads,
  ...consoleOperatorsReads,
  ...retentionReads,
  ...ledgerReads,
  ...alertsReads,
  ...summaryReads,
  ...reconciliationReads,
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
 * Writes of the ledger's tables (records, facts, discrepancies, an import's page of rows and
 * inputs), run by `driver.ledgerWrite`, each in a transaction of its own, never in the acks': on
 * SQLite the writer commits them one at a time after the acks waiting; on PostgreSQL they take the
 * ledger's lock first, the outbox-order lock only to queue events and the inputs' own lock to add
 * inputs, so the acks' transactions never wait for their reads, fold, rows or inputs.
 */
export type LedgerWriteName = 'projectLedger' | 'applyLedgerBatch' | 'sweepLedger' | 'rebuildLedger' | 'backfillLedger' | 'closeSummaryDay' | 'reopenSummaryDay' | 'storeImportPage';

/** The projector's read and fold (`driver.ledgerRead`): off the acks' writer, reader and event loop. */
export type LedgerReadName = 'computeLedgerBatch';

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
