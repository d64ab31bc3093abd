import type { FoldCache } from '../../ledger/projection/fold-cache';
import { arrayLiteral } from './array-literal';

/**
 * A store operation written once for both databases: a generator that yields SQL steps and
 * receives each step's result. The driver decides how a step runs (better-sqlite3 at once, pg
 * asynchronously), so the decision logic between the steps exists only here.
 */
export type Scalar = string | number | bigint | Buffer | Uint8Array | null;
/** A bound value; an array only for PostgreSQL (`unnest(?::text[])`), whose driver sends it as one array value. */
export type Param = Scalar | readonly Scalar[];

/** One statement and what its caller wants back: every row, the first row, or the count changed. */
export type Statement =
  | { mode: 'all'; sql: string; params: Param[] }
  | { mode: 'get'; sql: string; params: Param[] }
  | { mode: 'run'; sql: string; params: Param[] };

export type SqlStep =
  | Statement
  /**
   * Statements that need none of each other's results, run in order. PostgreSQL sends them in one
   * round trip (a pipeline, inside the caller's transaction: if one fails, the ones behind it fail
   * too and the transaction rolls back); SQLite runs them one after another.
   */
  | { mode: 'trip'; statements: Statement[]; unread?: true }
  /**
   * Outbox rows will be added or made pending. PostgreSQL serialises "draw outbox seq, commit"
   * across replicas with a transaction-scoped lock taken here; every driver wakes the relay
   * after the commit. SQLite has one writer, so the lock is a no-op there.
   */
  | { mode: 'outboxChanged' }
  /**
   * Ledger inputs will be added. PostgreSQL serialises "draw input seq, commit" with a lock of their
   * own, not the outbox's, so a long write of inputs (an import's page) never holds up the acks'
   * transactions; every driver wakes the projector after the commit, as for outbox rows.
   */
  | { mode: 'inputsChanged' }
  /** Which database runs this procedure, for the rare clause only one of them has. */
  | { mode: 'dialect' }
  /** The fold cache of the thread running this procedure: the projector's own; null on any other (the writer's sweep, a rebuild). */
  | { mode: 'foldCache' };

export type Dialect = 'sqlite' | 'postgres';

export interface RunResult {
  changes: number;
}

export type Procedure<T> = Generator<SqlStep, T, unknown>;

/** Every row of a SELECT (or RETURNING). */
export function* all<T>(sql: string, ...params: Param[]): Generator<SqlStep, T[], unknown> {
  return (yield { mode: 'all', sql, params }) as T[];
}

/** The first row, or undefined. */
export function* get<T>(sql: string, ...params: Param[]): Generator<SqlStep, T | undefined, unknown> {
  return (yield { mode: 'get', sql, params }) as T | undefined;
}

export function* run(sql: string, ...params: Param[]): Generator<SqlStep, RunResult, unknown> {
  return (yield { mode: 'run', sql, params }) as RunResult;
}

/**
 * Sends `statements` together (see the `trip` step): for writes whose statements depend only on
 * what the procedure already knows, one round trip on PostgreSQL instead of one each. The answers
 * come back in order, each as `all` (rows) or `run` ({ changes }) would give it.
 */
export function* oneTrip(...statements: Statement[]): Generator<SqlStep, unknown[], unknown> {
  if (statements.length === 0) return [];
  return (yield { mode: 'trip', statements }) as unknown[];
}

/**
 * The procedure's last writes, whose answers it does not read: like `oneTrip`, but PostgreSQL
 * does not wait for them before going on, so a write transaction's COMMIT goes out in the same
 * round trip (one round trip fewer per group commit, which the acks of the whole batch wait
 * for). A statement that fails still fails the transaction, before anyone is answered.
 */
export function* lastTrip(...statements: Statement[]): Generator<SqlStep, void, unknown> {
  if (statements.length > 0) yield { mode: 'trip', statements, unread: true };
}

/** A statement for `oneTrip`: every row. */
export function allRows(sql: string, ...params: Param[]): Statement {
  return { mode: 'all', sql, params };
}

/** A statement for `oneTrip`: the count of rows it changed. */
export function changes(sql: string, ...params: Param[]): Statement {
  return { mode: 'run', sql, params };
}

export function* outboxChanged(): Generator<SqlStep, void, unknown> {
  yield { mode: 'outboxChanged' };
}

export function* inputsChanged(): Generator<SqlStep, void, unknown> {
  yield { mode: 'inputsChanged' };
}

/**
 * Where the dialects truly differ, e.g. `FOR UPDATE SKIP LOCKED` (PostgreSQL; SQLite's single
 * writer needs no row lock): `(yield* dialect()) === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : ''`.
 */
export function* dialect(): Generator<SqlStep, Dialect, unknown> {
  return (yield { mode: 'dialect' }) as Dialect;
}

/** The running thread's fold cache (the projector's), or null where none is kept. */
export function* foldCache(): Generator<SqlStep, FoldCache | null, unknown> {
  return ((yield { mode: 'foldCache' }) as FoldCache | undefined) ?? null;
}

/** `?, ?, ?` for an IN list: portable where PostgreSQL's `= ANY($1)` is not. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/**
 * Bound parameters one statement may carry: SQLite's default limit (PostgreSQL allows 65535).
 * A multi-row statement longer than this is cut with `chunks`.
 */
const MAX_PARAMETERS = 32766;

/** `(?, ?), (?, ?)` for a multi-row `VALUES` of `rows` rows of `columns` values. */
export function valueRows(rows: number, columns: number): string {
  const row = `(${placeholders(columns)})`;
  return Array.from({ length: rows }, () => row).join(', ');
}

/**
 * `items` in runs that fit one statement when each item binds `parametersEach` values, and at most
 * `maxEach` items (an OR of one term per item is an expression tree as deep as the run: SQLite
 * refuses one over 1000 deep).
 */
export function chunks<T>(items: readonly T[], parametersEach: number, maxEach = Infinity): Array<readonly T[]> {
  const size = Math.max(1, Math.min(maxEach, Math.floor(MAX_PARAMETERS / parametersEach)));
  if (items.length <= size) return items.length > 0 ? [items] : [];
  const runs: T[][] = [];
  for (let i = 0; i < items.length; i += size) runs.push(items.slice(i, i + size));
  return runs;
}

/**
 * `chunks`, each cut again into runs of a power of two, largest first (37 = 32 + 4 + 1): a
 * multi-row statement then has at most nine texts up to 256 rows, each prepared once per
 * connection and kept. Sized to the run, the ledger projector's statements were new texts in
 * nearly every batch, each prepared by SQLite (and kept: the statement cache grew by a dozen a
 * batch). A few more statements run; far fewer are prepared.
 */
export function ladderChunks<T>(items: readonly T[], parametersEach: number, maxEach = Infinity): Array<readonly T[]> {
  const runs: Array<readonly T[]> = [];
  for (const chunk of chunks(items, parametersEach, maxEach)) {
    for (let at = 0; at < chunk.length; ) {
      const size = 2 ** Math.floor(Math.log2(chunk.length - at));
      runs.push(size === chunk.length ? chunk : chunk.slice(at, at + size));
      at += size;
    }
  }
  return runs;
}

/** `rowInserts` in runs of `ladderChunks`: for statements whose row counts vary from one transaction to the next. */
export function ladderRowInserts(sql: (rows: number) => string, columns: number, rows: readonly Param[][]): Statement[] {
  return ladderChunks(rows, columns).map((chunk) => {
    const params: Param[] = [];
    for (const row of chunk) params.push(...row);
    return changes(sql(chunk.length), ...params);
  });
}

/** Multi-row inserts of `rows` (each `columns` values), as many statements as the parameter limit needs. */
export function rowInserts(sql: (rows: number) => string, columns: number, rows: readonly Param[][]): Statement[] {
  return chunks(rows, columns).map((chunk) => {
    const params: Param[] = [];
    for (const row of chunk) params.push(...row);
    return changes(sql(chunk.length), ...params);
  });
}

/**
 * The values of `rows` (each `columns` long) as one array per column: PostgreSQL takes a multi-row
 * write as `unnest(?::text[], …)`, one statement text whatever the row count, prepared once per
 * connection and planned once, where a `VALUES` list of N rows is a new text (parsed and planned
 * again) for every N, and its planning grows with N. Each array comes already in PostgreSQL's text
 * form (`arrayLiteral`), encoded by the thread that builds the statement, not the one that sends it.
 */
export function columnArrays(rows: readonly (readonly Param[])[], columns: number): string[] {
  const arrays: Scalar[][] = Array.from({ length: columns }, () => new Array<Scalar>(rows.length));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let c = 0; c < columns; c++) arrays[c]![r] = row[c] as Scalar;
  }
  return arrays.map(arrayLiteral);
}

/**
 * `build(size)` once per size: a multi-row statement's text is then the very same string every
 * time, which the drivers' statement caches (keyed by text) find without hashing it again.
 */
export function sqlBySize(build: (size: number) => string): (size: number) => string {
  const texts: string[] = [];
  return (size) => (texts[size] ??= build(size));
}

/**
 * Where a keyset page of at most `limit` rows leaves off: the integer key of its last row when the
 * page is full (there may be more), null when it is not (the last page). PostgreSQL's BIGINT comes
 * as text; these keys (seq, order_id) stay far below 2^53.
 */
export function pageEnd<R>(rows: readonly R[], limit: number, key: (row: R) => number | string): number | null {
  return rows.length < limit ? null : Number(key(rows.at(-1)!));
}
