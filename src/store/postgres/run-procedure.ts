import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { FoldCache } from '../../ledger/projection/fold-cache';
import type { Param, Procedure, SqlStep, Statement } from '../procedures/procedure';
import { LOCK_KIND, lockArgs } from './advisory-locks';
import { query, queryResult, type TransactionEnds } from './pool';
import { NEW_EVENTS_CHANNEL } from './relay-lock';

/**
 * Held until COMMIT by every transaction that may draw an outbox seq, so outbox seqs commit in the
 * order they are drawn across replicas. A BIGSERIAL/identity value is drawn at insert but becomes
 * visible at commit, so without it two replicas could commit seq 6 before seq 5 and the relay would
 * forward 6 first (a cancel before its approval). Write transactions take it as they begin, before
 * any inbox key (see group-commit.ts), so replicas' batches serialise instead of deadlocking. The
 * alternative (reading only below the oldest in-flight transaction) stalls the relay behind any
 * long transaction, including an operator's psql.
 */
const LOCK_OUTBOX_ORDER = `SELECT pg_advisory_xact_lock(${lockArgs(LOCK_KIND.outboxOrder)})`;
/**
 * Held until COMMIT by every transaction that draws a ledger input seq, so input seqs commit in the
 * order drawn (the projector reads past its position, as the relay does the outbox). Not the
 * outbox's lock: an import's pages of inputs, written in transactions of their own, then never
 * hold up the acks, which add no inputs. A transaction holding both takes the outbox's first
 * (a write of the group commit takes it as it begins), so no two can wait for each other.
 */
const LOCK_INPUT_ORDER = `SELECT pg_advisory_xact_lock(${lockArgs(LOCK_KIND.inputOrder)})`;
/** Serialises the transactions that write the ledger's tables, across replicas and the CLI. */
const LOCK_LEDGER_WRITE = `SELECT pg_advisory_xact_lock(${lockArgs(LOCK_KIND.ledgerWrite)})`;
/** Delivered on commit only, once per transaction however many rows it added. */
const NOTIFY_NEW_EVENTS = `SELECT pg_notify('${NEW_EVENTS_CHANNEL}', '')`;

export interface Effects {
  outboxChanged: boolean;
  /**
   * Where a transaction's runner collects the answers of `lastTrip` statements, to wait for them
   * after sending COMMIT behind them (pool.ts); without it the procedure waits for them itself.
   */
  unanswered?: Array<Promise<unknown>>;
  /** This transaction already holds the outbox-order lock (a write transaction takes it as it begins). */
  orderLocked?: boolean;
  /** This transaction holds the input-order lock. */
  inputsLocked?: boolean;
  /** The fold cache of the thread running the procedure: the projector's own. */
  foldCache?: FoldCache;
}

/**
 * How every write transaction begins and ends: the outbox-order lock is taken with BEGIN, and the
 * relay's NOTIFY (when outbox rows changed) is sent with COMMIT, in the same round trips.
 */
export function writeTransaction(effects: Effects): TransactionEnds {
  effects.unanswered ??= [];
  return {
    begin: `BEGIN; ${LOCK_OUTBOX_ORDER}`,
    commit: () => (effects.outboxChanged ? `${NOTIFY_NEW_EVENTS}; COMMIT` : 'COMMIT'),
    unanswered: effects.unanswered,
  };
}

/**
 * How a transaction of the ledger's begins and ends (a projector's batch, a sweep, a rebuild page):
 * the ledger's own lock with BEGIN, so its writes never interleave with another's; the outbox-order
 * lock only when it queues events (`outboxChanged`), after its reads and fold, so the acks'
 * transactions wait for it only while it draws its events' seqs and commits.
 */
export function ledgerTransaction(effects: Effects): TransactionEnds {
  effects.unanswered ??= [];
  return {
    begin: `BEGIN; ${LOCK_LEDGER_WRITE}`,
    commit: () => (effects.outboxChanged ? `${NOTIFY_NEW_EVENTS}; COMMIT` : 'COMMIT'),
    unanswered: effects.unanswered,
  };
}

const numbered = new Map<string, string>();

/** Portable `?` placeholders as PostgreSQL's `$1, $2, …` (our SQL has no `?` inside literals). */
function toPostgres(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, text);
  }
  return text;
}

/** Runs a procedure's steps on one client (in a transaction for writes, the caller's). */
export async function runProcedure<T>(
  db: PoolClient | Pool,
  action: string,
  procedure: Procedure<T>,
  effects: Effects,
): Promise<T> {
  const own: Array<Promise<unknown>> = [];
  const unanswered = effects.unanswered ?? own;
  let step = procedure.next();
  while (!step.done) {
    const { value } = step;
    if (value.mode === 'trip' && value.unread) {
      // Sent now, answered later: the caller's next statements (or its COMMIT) queue behind them.
      for (const statement of value.statements) {
        const answer = runStatement(db, action, statement);
        // Handled here too: when an earlier-failing statement ends the transaction first, nobody
        // awaits this one, and an unhandled rejection would end the process.
        answer.catch(() => undefined);
        unanswered.push(answer);
      }
      step = procedure.next(undefined);
      continue;
    }
    step = procedure.next(await runStep(db, action, value, effects));
  }
  await Promise.all(own);
  return step.value;
}

async function runStep(
  db: PoolClient | Pool,
  action: string,
  step: SqlStep,
  effects: Effects,
): Promise<unknown> {
  if (step.mode === 'inputsChanged') {
    if (!effects.inputsLocked) await query(db, action, LOCK_INPUT_ORDER);
    effects.inputsLocked = true;
    // The NOTIFY that wakes the projectors goes with the COMMIT, as the relay's does.
    effects.outboxChanged = true;
    return undefined;
  }
  if (step.mode === 'outboxChanged') {
    // The lock order (LOCK_INPUT_ORDER): a transaction may wait for the outbox's lock only while it holds no input's.
    if (effects.inputsLocked && !effects.orderLocked) throw new Error(`${action}: the outbox-order lock must be taken before the input-order lock`);
    if (!effects.orderLocked) await query(db, action, LOCK_OUTBOX_ORDER);
    effects.orderLocked = true;
    // The NOTIFY goes with the COMMIT (writeTransaction).
    effects.outboxChanged = true;
    return undefined;
  }
  if (step.mode === 'dialect') return 'postgres';
  if (step.mode === 'foldCache') return effects.foldCache;
  // On a transaction's client (pipeline mode, see pool.ts) these go out together and come back in
  // order; a read on the pool sends them on whichever connections are free.
  if (step.mode === 'trip') return Promise.all(step.statements.map((statement) => runStatement(db, action, statement)));
  return runStatement(db, action, step);
}

async function runStatement(db: PoolClient | Pool, action: string, statement: Statement): Promise<unknown> {
  const result = await queryResult<QueryResultRow>(db, action, toPostgres(statement.sql), statement.params as Param[]);
  if (statement.mode === 'all') return result.rows;
  if (statement.mode === 'get') return result.rows[0];
  return { changes: result.rowCount ?? 0 };
}
