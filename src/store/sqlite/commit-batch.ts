import { writeBatch, type WriteRequest } from '../procedures/inbox-outbox/write-batch';
import { runProcedure, type StatementCache } from './run-procedure';

export type WriteOutcome = { ok: true; value: unknown } | { ok: false; error: string };

export interface BatchResult {
  outcomes: WriteOutcome[];
  /** Some committed write added or revived outbox rows: the relay should look. */
  outboxChanged: boolean;
}

/**
 * Group commit: every write in `batch` in one transaction and one fsync'ed COMMIT
 * (synchronous=FULL in WAL mode). No savepoint per item; if anything fails, the transaction is
 * rolled back and each item is retried alone, so one bad row never fails its neighbours.
 */
export function commitBatch(statements: StatementCache, batch: readonly WriteRequest[]): BatchResult {
  const together = transaction(statements, batch);
  if (!(together instanceof Error)) return together;
  // No write lock (another process holds it for longer than the busy timeout): no item is at
  // fault, and retrying each would wait the timeout once per item while acks queue behind.
  if (batch.length === 1 || together instanceof LockNotTaken) return failAll(batch, together);
  const outcomes: WriteOutcome[] = [];
  let outboxChanged = false;
  for (const request of batch) {
    const alone = transaction(statements, [request]);
    if (alone instanceof Error) {
      outcomes.push({ ok: false, error: alone.message });
    } else {
      outcomes.push(alone.outcomes[0]!);
      outboxChanged ||= alone.outboxChanged;
    }
  }
  return { outcomes, outboxChanged };
}

class LockNotTaken extends Error {}

/** Writes per writeBatch within one transaction (see `transaction`). */
const WRITES_EACH = 32;

function failAll(batch: readonly WriteRequest[], error: Error): BatchResult {
  return { outcomes: batch.map(() => ({ ok: false, error: error.message })), outboxChanged: false };
}

/** The outcomes when all of `batch` committed; the error when it was rolled back. */
function transaction(statements: StatementCache, batch: readonly WriteRequest[]): BatchResult | Error {
  const effects = { outboxChanged: false };
  try {
    statements.get('BEGIN IMMEDIATE').run();
  } catch (error) {
    return new LockNotTaken((error as Error).message);
  }
  try {
    // As writeBatch, like PostgreSQL's: a run of notifications is one recordNotifications, so the
    // ledger reads, computes and writes the run's orders once, with a few multi-row statements,
    // instead of nine statements per notification, which costs the writer less CPU per notification
    // (BENCHMARKS.md has the figure). In slices of WRITES_EACH: each multi-row statement is prepared
    // once per row count and kept, so the sizes stay few however long the writer's queue grows.
    const values: unknown[] = [];
    for (let i = 0; i < batch.length; i += WRITES_EACH) {
      values.push(...runProcedure(statements, writeBatch(batch.slice(i, i + WRITES_EACH)), effects));
    }
    statements.get('COMMIT').run();
    return { outcomes: values.map((value) => ({ ok: true, value })), outboxChanged: effects.outboxChanged };
  } catch (error) {
    // A failed COMMIT (disk full, I/O error) may already have rolled back.
    if (statements.db.inTransaction) statements.db.exec('ROLLBACK');
    return error instanceof Error ? error : new Error(String(error));
  }
}
