import type { Database, Statement } from 'better-sqlite3';
import type { FoldCache } from '../../ledger/projection/fold-cache';
import type { Param, Procedure, SqlStep, Statement as Sql } from '../procedures/procedure';

/** Prepared statements by SQL text: a procedure's SQL is fixed text, so the cache stays small. */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();
  constructor(readonly db: Database) {}

  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** What a procedure's run notes (`outboxChanged`) and what its thread lends it (the projector's fold cache). */
export interface RunEffects {
  outboxChanged: boolean;
  foldCache?: FoldCache;
}

/**
 * Runs a procedure's steps synchronously on one connection. The caller owns the transaction.
 * `outboxChanged` and `inputsChanged` are only noted: SQLite has a single writer, so commit order is seq order already.
 */
export function runProcedure<T>(statements: StatementCache, procedure: Procedure<T>, effects: RunEffects): T {
  let step = procedure.next();
  while (!step.done) {
    step = procedure.next(runStep(statements, step.value, effects));
  }
  return step.value;
}

function runStep(statements: StatementCache, step: SqlStep, effects: RunEffects): unknown {
  if (step.mode === 'outboxChanged' || step.mode === 'inputsChanged') {
    effects.outboxChanged = true;
    return undefined;
  }
  if (step.mode === 'dialect') return 'sqlite';
  if (step.mode === 'foldCache') return effects.foldCache;
  // A statement costs microseconds here: a trip is its statements one after another.
  if (step.mode === 'trip') {
    const answers = step.statements.map((sql) => runStatement(statements, sql));
    return step.unread ? undefined : answers;
  }
  return runStatement(statements, step);
}

function runStatement(statements: StatementCache, sql: Sql): unknown {
  const statement = statements.get(sql.sql);
  const params = sql.params.map(bindable);
  if (sql.mode === 'all') return statement.all(...params);
  if (sql.mode === 'get') return statement.get(...params);
  return { changes: statement.run(...params).changes };
}

/** A Buffer sent to a worker arrives as a plain Uint8Array; SQLite binds a Buffer as a BLOB. */
function bindable(param: Param): Param {
  if (param instanceof Uint8Array && !Buffer.isBuffer(param)) return Buffer.from(param.buffer, param.byteOffset, param.byteLength);
  return param;
}
