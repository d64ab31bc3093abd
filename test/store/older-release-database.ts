import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMigrations } from '../../src/store/migrations';
import { migrate as migratePostgres } from '../../src/store/postgres/migrate';
import { createPool, inTransaction } from '../../src/store/postgres/pool';
import { runProcedure as runOnPostgres } from '../../src/store/postgres/run-procedure';
import type { OwnEvent } from '../../src/store/procedures/inbox-outbox/own-events';
import { recordColumns, storedOrderRecord, type StoredRecordRow } from '../../src/ledger/sql/order-items';
import { all, dialect, get, run, type Procedure } from '../../src/store/procedures/procedure';
import { migrate as migrateSqlite } from '../../src/store/sqlite/migrate';
import { openConnection } from '../../src/store/sqlite/open-connection';
import { runProcedure as runOnSqlite, StatementCache } from '../../src/store/sqlite/run-procedure';
import { admin, createTestSchema } from './pg-test-database';

export type Row = Record<string, unknown>;

/**
 * A database as a release with migrations up to `version` left it, for the upgrade tests: what
 * they seed, read and check before the current store opens it (and migrates, as the service does).
 */
export interface OlderReleaseDatabase {
  /** Runs a write as the store did then: the procedures' SQL works on either schema. */
  write<T>(procedure: Procedure<T>): Promise<T>;
  rows(sql: string): Promise<Row[]>;
  cleanup(): Promise<void>;
}

/**
 * Tables a later migration added that today's procedures read (never write, when seeding an older
 * release's rows): each seed write sees them as empty temporary tables, which the store opening the
 * database later never sees, so the database stays exactly as that release left it.
 */
const READ_SINCE: Array<{ version: number; sql: (integer: string) => string }> = [
  { version: 14, sql: (integer) => `CREATE TEMP TABLE IF NOT EXISTS ledger_inputs (seq ${integer} PRIMARY KEY, fact_json TEXT NOT NULL)` },
  {
    version: 16,
    sql: (integer) => `CREATE TEMP TABLE IF NOT EXISTS ledger_failed_inputs (input_seq ${integer} PRIMARY KEY, mall_id TEXT NOT NULL,
      shop_order_no TEXT NOT NULL, error TEXT NOT NULL, failed_at TEXT NOT NULL)`,
  },
  // Where each order's fold stands (migration 030, which replaced 019's ledger_fold_states).
  {
    version: 30,
    sql: (integer) => `CREATE TEMP TABLE IF NOT EXISTS ledger_fold_positions (order_id ${integer} PRIMARY KEY, settings TEXT NOT NULL,
      last_moment ${integer}, version TEXT NOT NULL)`,
  },
  // An order's record as header and items (migration 031): a seed's record writes are made whole again after it (`recordsWhole`).
  {
    version: 31,
    sql: (integer) => `CREATE TEMP TABLE IF NOT EXISTS ledger_order_items (order_id ${integer} NOT NULL, list TEXT NOT NULL, item_no ${integer} NOT NULL,
      item_json TEXT NOT NULL, PRIMARY KEY (order_id, list, item_no))`,
  },
  // A record write moves the projector's generation (migration 023); before 014 there is no projector row to move.
  { version: 14, sql: (integer) => `CREATE TEMP TABLE IF NOT EXISTS ledger_projector (id ${integer} PRIMARY KEY, generation ${integer} NOT NULL DEFAULT 0)` },
  // The day's money: a seed's record writes book their orders there too (thrown away with the table).
  {
    version: 20,
    sql: () => `CREATE TEMP TABLE IF NOT EXISTS summary_daily (day TEXT NOT NULL, mall_id TEXT NOT NULL, currency TEXT NOT NULL, kind TEXT NOT NULL,
      method TEXT NOT NULL, count BIGINT NOT NULL, amount BIGINT NOT NULL, PRIMARY KEY (day, mall_id, currency, kind, method))`,
  },
  {
    version: 28,
    sql: () => `CREATE TEMP TABLE IF NOT EXISTS summary_order_days (day TEXT NOT NULL, mall_id TEXT NOT NULL, shop_order_no TEXT NOT NULL,
      PRIMARY KEY (day, mall_id, shop_order_no))`,
  },
  // Closed days (migration 033): a seed's record writes of past days look for a close, and book an adjustment where one stands.
  {
    version: 33,
    sql: () => `CREATE TEMP TABLE IF NOT EXISTS summary_closes (day TEXT NOT NULL, mall_id TEXT NOT NULL, closed_at TEXT NOT NULL, closed_by TEXT NOT NULL,
      figures_json TEXT NOT NULL, orders_json TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (day, mall_id))`,
  },
  {
    version: 33,
    sql: () => `CREATE TEMP TABLE IF NOT EXISTS summary_adjustments (day TEXT NOT NULL, adjusts_day TEXT NOT NULL, mall_id TEXT NOT NULL, currency TEXT NOT NULL,
      kind TEXT NOT NULL, method TEXT NOT NULL, count BIGINT NOT NULL, amount BIGINT NOT NULL, PRIMARY KEY (day, adjusts_day, mall_id, currency, kind, method))`,
  },
];
const laterTables = (version: number, integer: string) => READ_SINCE.filter((t) => t.version > version).map((t) => t.sql(integer));

/**
 * Columns a later migration added to a table the seed writes (`since`: the migration that made the
 * table): added for each seed write and dropped after it in its transaction, so the database stays
 * as that release left it (`before`: what makes the rows read as that release wrote them, run
 * before the column goes).
 */
const WRITTEN_SINCE: Array<{ version: number; since: number; table: string; column: string; type: string; before?: string }> = [
  // Who wrote an inbox row (migration 027): before it, the service's own rows said so by source_ip 'internal'.
  { version: 27, since: 1, table: 'inbox', column: 'origin', type: "TEXT NOT NULL DEFAULT 'gateway'", before: "UPDATE inbox SET source_ip = 'internal' WHERE origin <> 'gateway'" },
  // The day an order's status counts from in the day's money (migration 028), in its row.
  { version: 28, since: 10, table: 'ledger_orders', column: 'summary_day', type: 'TEXT' },
];
const laterColumns = (version: number) => WRITTEN_SINCE.filter((c) => c.version > version && c.since <= version);
const addColumns = (version: number) => laterColumns(version).map((c) => `ALTER TABLE ${c.table} ADD COLUMN ${c.column} ${c.type}`);
const dropColumns = (version: number) => laterColumns(version).flatMap((c) => [...(c.before ? [c.before] : []), `ALTER TABLE ${c.table} DROP COLUMN ${c.column}`]);

/**
 * Before migration 031 a record was stored whole: the records a seed write stored as header and
 * items (into the temporary items table) are written whole, as that release wrote them, and the
 * temporary items go. A header is a record without its lists' arrays (an order always has `events`).
 */
function* recordsWhole(): Procedure<void> {
  const rows = yield* all<StoredRecordRow & { order_id: number | string }>(
    `SELECT o.order_id, ${recordColumns(yield* dialect(), 'o')} FROM ledger_orders o WHERE o.record_json NOT LIKE '%"events":[%'`,
  );
  for (const row of rows) yield* run('UPDATE ledger_orders SET record_json = ? WHERE order_id = ?', JSON.stringify(storedOrderRecord(row)), Number(row.order_id));
  yield* run('DELETE FROM ledger_order_items');
}

/** The seed's procedure, then what makes its writes read as that release wrote them. */
function* asWritten<T>(version: number, procedure: Procedure<T>): Procedure<T> {
  const result = yield* procedure;
  if (version < 31 && version >= 10) yield* recordsWhole();
  return result;
}

export function sqliteAtVersion(version: number): OlderReleaseDatabase & { file: string; db: Database.Database } {
  const dir = mkdtempSync(join(tmpdir(), 'noti-upgrade-'));
  const file = join(dir, 'receiver.db');
  const db = openConnection(file, { busyTimeoutMs: 1000, setJournalMode: true });
  migrateSqlite(db, { migrations: readMigrations('sqlite').filter((m) => m.version <= version) });
  for (const sql of laterTables(version, 'INTEGER')) db.exec(sql);
  const statements = new StatementCache(db);
  return {
    file,
    db,
    write: async (procedure) => db.transaction(() => {
      for (const sql of addColumns(version)) db.exec(sql);
      const result = runOnSqlite(statements, asWritten(version, procedure), { outboxChanged: false });
      for (const sql of dropColumns(version)) db.exec(sql);
      return result;
    }).immediate(),
    rows: async (sql) => db.prepare(sql).all() as Row[],
    cleanup: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function postgresAtVersion(version: number): Promise<OlderReleaseDatabase & { url: string }> {
  const schema = await createTestSchema();
  const pool = createPool(schema.url, {});
  await migratePostgres(pool, { migrations: readMigrations('postgres').filter((m) => m.version <= version) });
  return {
    url: schema.url,
    write: (procedure) => inTransaction(pool, 'seed', async (client) => {
      for (const sql of laterTables(version, 'BIGINT')) await client.query(`${sql} ON COMMIT DROP`);
      for (const sql of addColumns(version)) await client.query(sql);
      const result = await runOnPostgres(client, 'seed', asWritten(version, procedure), { outboxChanged: false });
      for (const sql of dropColumns(version)) await client.query(sql);
      return result;
    }),
    rows: (sql) => admin(schema.url, sql),
    cleanup: async () => {
      await pool.end();
      await schema.drop();
    },
  };
}

/**
 * Inside a describe: a fresh older-release database per test (`openOld`), and whatever store a test
 * opens on it (`opened`), closed with the database after the test.
 */
export function olderReleaseFixture<T extends OlderReleaseDatabase>(openOld: () => Promise<T>): { readonly old: T; opened<S extends { close(): Promise<void> }>(store: S): S } {
  let old: T | null = null;
  let store: { close(): Promise<void> } | null = null;
  beforeEach(async () => {
    old = await openOld();
  });
  afterEach(async () => {
    await store?.close();
    store = null;
    await old?.cleanup();
  });
  return {
    get old() {
      return old!;
    },
    opened(opening) {
      store = opening;
      return opening;
    },
  };
}

/**
 * The service's own event (a ledger event, `ledger`, or a command's final state, `command`) with its
 * outbox row as releases before migration 027 stored it: an inbox row of source_ip 'internal' keyed
 * `<kind>:<id>`, before the inbox had its origin column.
 */
export function* ownEntryBefore027(kind: 'ledger' | 'command', event: OwnEvent, at: string): Procedure<void> {
  const inserted = yield* get<{ seq: number | string }>(
    `INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash,
       raw_body, content_type, source_ip, received_at, event_json)
     VALUES (?, ?, '', ?, ?, ?, NULL, ?, ?, 'application/json', 'internal', ?, ?) RETURNING seq`,
    event.id, `${kind}:${event.id}`, event.type, event.mallId, event.pgCno, event.bodyHash, Buffer.from(event.json, 'utf8'), at, event.json,
  );
  yield* run('INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms) VALUES (?, ?, ?, ?)', Number(inserted!.seq), event.id, at, Date.parse(at));
}
