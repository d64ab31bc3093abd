import { Pool, types as pgTypes, type PoolClient, type PoolConfig, type QueryConfig, type QueryResult, type QueryResultRow } from 'pg';
import type { OnMigration } from '../migrations';
import { StoreUnavailable } from '../store';

export interface PostgresOptions {
  /** How long to wait for a connection before answering 503; a dead database must not hang acks. */
  connectTimeoutMs?: number;
  /** Server-side cap on one statement (includes waiting for locks). */
  statementTimeoutMs?: number;
  maxConnections?: number;
  /** Told about errors no caller is waiting for (an idle connection dropped); the pool reconnects by itself. */
  onBackgroundError?: (error: Error) => void;
  /** Told about each migration just before it is applied at open, e.g. to log a long one. */
  onMigration?: OnMigration;
}

const DEFAULTS = { connectTimeoutMs: 2000, statementTimeoutMs: 5000, maxConnections: 10 } as const;

const INT8_OID = 20;
/**
 * seq, ids, counts and epoch-ms are BIGINT; the Store interface speaks numbers. They stay far
 * below 2^53, and parsing per pool keeps the global pg type registry untouched.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pgTypes.getTypeParser(oid, format)) as typeof pgTypes.getTypeParser,
};

/**
 * libpq's `connect_timeout` (seconds) when the URL names one: how long a connection may take to
 * open, where a database that answers slowly (a loaded or distant server) needs more than the 2 s
 * default. pg itself does not read it from the URL.
 */
function urlConnectTimeoutMs(url: string): number | undefined {
  let seconds: string | null;
  try {
    seconds = new URL(url).searchParams.get('connect_timeout');
  } catch {
    return undefined;
  }
  const value = Number(seconds);
  return seconds !== null && seconds.trim() !== '' && Number.isFinite(value) && value > 0 ? value * 1000 : undefined;
}

export function connectionConfig(url: string, options: PostgresOptions): PoolConfig {
  const statementTimeout = options.statementTimeoutMs ?? DEFAULTS.statementTimeoutMs;
  return {
    connectionString: url,
    application_name: 'payment-noti-receiver',
    connectionTimeoutMillis: options.connectTimeoutMs ?? urlConnectTimeoutMs(url) ?? DEFAULTS.connectTimeoutMs,
    statement_timeout: statementTimeout,
    // The client-side cap catches a network that swallows packets, where the server cannot answer at all.
    query_timeout: statementTimeout + 1000,
    // A replica that stalls inside a transaction would hold the outbox-order lock and block every other
    // replica's acks; the server ends such a session and so releases the lock.
    idle_in_transaction_session_timeout: statementTimeout * 2,
    keepAlive: true,
    types,
  };
}

export function createPool(url: string, options: PostgresOptions): Pool {
  // Pipeline mode: a transaction's client sends a statement without waiting for the answer to the
  // one before, where the procedure says they do not depend on each other (a `trip`), and its BEGIN
  // rides with the first statement. Each round trip waits for this busy event loop and the
  // server's process to be scheduled on a shared CPU, so it costs far more than the statement.
  const pool = new Pool({ ...connectionConfig(url, options), max: options.maxConnections ?? DEFAULTS.maxConnections, pipeline: true });
  // Without a listener, an idle connection dropped by a database restart would crash the process;
  // the pool has already discarded that client and the next query connects afresh.
  pool.on('error', (error) => options.onBackgroundError?.(error));
  // Queued before any statement of the new connection (the pool hands it out after this event).
  pool.on('connect', (client) => void client.query(NO_JIT).catch(() => undefined));
  return pool;
}

/**
 * No statement of ours is long enough for JIT compilation to pay, and on tables whose statistics
 * are missing or young (autovacuum off, a store just restored or upgraded) the planner costs a
 * batch's reads past the JIT thresholds: each run of a projector batch's read of its orders was
 * compiled, with inlining and optimization, for far longer than it then ran.
 */
const NO_JIT = 'SET jit = off';

function unavailable(action: string, error: unknown): StoreUnavailable {
  if (error instanceof StoreUnavailable) return error;
  return new StoreUnavailable(`postgres ${action} failed: ${(error as Error).message}`, { cause: error });
}

/**
 * PostgreSQL TEXT cannot hold U+0000. A gateway field carrying one must not make a notification
 * unstorable (a 503 the gateway would retry forever); the exact bytes are kept in raw_body anyway.
 */
function textSafe(params: unknown[]): unknown[] {
  return params.map((value) => (typeof value === 'string' ? value.replace(/\u0000/g, '\uFFFD') : Array.isArray(value) ? textSafe(value) : value));
}

export async function query<R extends QueryResultRow>(
  db: Pool | PoolClient,
  action: string,
  sql: string,
  params: unknown[] = [],
  timeoutMs?: number,
): Promise<R[]> {
  return (await queryResult<R>(db, action, sql, params, timeoutMs)).rows;
}

/**
 * Statements of up to this many parameters run as named prepared statements: each connection
 * parses and plans one once, then only binds it, which the inbox's multi-row insert of every batch
 * repays above all (BENCHMARKS.md has the figure). Longer ones (multi-row
 * statements of big batches) run unnamed, so no connection keeps hundreds of plans for batch sizes
 * it saw once. Named statements need a session of their own, as the relay lock and LISTEN already
 * do: a pooler in front of PostgreSQL must run in session mode.
 */
const MAX_PREPARED_PARAMETERS = 512;
const preparedNames = new Map<string, string>();

function preparedName(sql: string, parameters: number): string | undefined {
  if (parameters === 0 || parameters > MAX_PREPARED_PARAMETERS) return undefined;
  let name = preparedNames.get(sql);
  if (name === undefined) {
    name = `noti_${preparedNames.size}`;
    preparedNames.set(sql, name);
  }
  return name;
}

export async function queryResult<R extends QueryResultRow>(
  db: Pool | PoolClient,
  action: string,
  sql: string,
  params: unknown[] = [],
  timeoutMs?: number,
): Promise<QueryResult<R>> {
  try {
    // query_timeout per query is supported by pg but missing from its typings.
    const config: QueryConfig & { query_timeout?: number } = {
      text: sql, name: preparedName(sql, params.length), values: textSafe(params), query_timeout: timeoutMs,
    };
    return await db.query<R>(config);
  } catch (error) {
    throw unavailable(action, error);
  }
}

/**
 * How a transaction opens and ends. Each is sent as one simple query, so statements that must run
 * first or last (a lock, a NOTIFY) can ride along instead of costing a round trip of their own.
 */
export interface TransactionEnds {
  begin: string;
  /** Asked once `work` is done, so it may depend on what the work did. */
  commit: () => string;
  /** Statements the work sent and did not wait for (`lastTrip`): the COMMIT goes out behind them. */
  unanswered?: Array<Promise<unknown>>;
}

const PLAIN: TransactionEnds = { begin: 'BEGIN', commit: () => 'COMMIT' };

/**
 * Runs `work` in one transaction and resolves only after COMMIT returned, which with the default
 * synchronous_commit=on means the WAL is flushed: the caller may ack the gateway on it.
 */
export async function inTransaction<T>(
  pool: Pool,
  action: string,
  work: (client: PoolClient) => Promise<T>,
  ends: TransactionEnds = PLAIN,
): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw unavailable(action, error);
  }
  // A checked-out client has no error listener of its own: a connection dropped mid-transaction
  // would crash the process. The failing query rejects anyway, so the event needs no action.
  const ignoreSocketError = () => undefined;
  client.on('error', ignoreSocketError);
  try {
    // Not awaited before the work: BEGIN goes out with the work's first statement. It is one simple
    // query with the statements that must run first (the outbox-order lock): if any of them fails
    // after BEGIN, the transaction is aborted and every statement behind it fails, so the work can
    // never run outside the transaction. Its failure is the one thrown (its answer comes first).
    const begun = client.query(ends.begin);
    begun.catch(() => undefined);
    let result: T;
    try {
      result = await work(client);
    } catch (error) {
      await begun;
      throw error;
    }
    // Behind BEGIN and the statements still unanswered (a work that waited for none of its answers
    // commits in its first round trip): if one of them fails, the server has aborted the
    // transaction and answers this COMMIT with a ROLLBACK, and the failure is what is thrown.
    const committed = client.query(ends.commit());
    await Promise.all([begun, ...(ends.unanswered ?? []), committed]);
    // A COMMIT sent with a NOTIFY answers both: the COMMIT's is the last.
    const answers = await committed;
    if ([answers].flat().at(-1)?.command === 'ROLLBACK') throw new Error('the transaction was rolled back at COMMIT');
    client.removeListener('error', ignoreSocketError);
    client.release();
    return result;
  } catch (error) {
    // Destroying the connection makes the server roll back; an explicit ROLLBACK could hang on a
    // dead network and delay the 503 the gateway is waiting for.
    client.removeListener('error', ignoreSocketError);
    client.release(true);
    throw unavailable(action, error);
  }
}
