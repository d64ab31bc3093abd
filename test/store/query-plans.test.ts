import { inboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type PoolClient, type QueryConfig } from 'pg';
import { migrate as migratePostgres } from '../../src/store/postgres/migrate';
import { createPool } from '../../src/store/postgres/pool';
import { runProcedure as runOnPostgres } from '../../src/store/postgres/run-procedure';
import { reads, writes } from '../../src/store/procedures';
import type { Param, Procedure } from '../../src/store/procedures/procedure';
import { recordNotifications } from '../../src/store/procedures/inbox-outbox/record-notifications';
import { commandLedgerFacts } from '../../src/store/procedures/commands/command-ledger-facts';
import { hitDetails } from '../../src/ledger/sql/search-hit-details';
import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import type { StoredCommand } from '../../src/store/command-types';
import { runProcedure as runOnSqlite, StatementCache } from '../../src/store/sqlite/run-procedure';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { InboxEntry } from '../../src/store/store';
import { inboxEntry } from '../helpers/stored-events';
import { createTestSchema, describePostgres, type TestSchema } from './pg-test-database';
import { EXPECTED_INDEXES, EXPECTED_LEDGER_INDEXES, EXPECTED_SEARCH_INDEXES, LEDGER_TABLES, postgresIndexes, sqliteIndexes } from './schema-indexes';

const AT = '2026-11-21T03:00:00.000Z';

/** A wallet-b cancellation as the command store returns it, for the ledger's lookup of its order. */
const walletCancel = (pgCno: string): StoredCommand => ({
  command: 'wallet-b.cancel', shopTransactionId: 'st-plan', mallId: 'T0001234', state: 'succeeded', attempts: 1,
  request: { pgCno }, response: null, lastError: null, createdAt: AT, updatedAt: AT,
  bodyHash: 'h', nextAttemptAt: 0, budgetStart: 0, lockedBy: null, lockedUntil: null,
});

interface Planned {
  sql: string;
  plan: string[];
}

/** Runs a store procedure for real, and says how the database planned each statement it ran. */
interface PlanningDatabase {
  run<T>(procedure: Procedure<T>): Promise<{ result: T; statements: Planned[] }>;
  /**
   * The lines of a plan that read a whole table or a whole index. A partial index (outbox_pending,
   * inbox_unpruned, …) is not one: it holds only the rows its condition names, a backlog or what
   * retention has left to prune, never the months of delivered notifications.
   */
  fullScans(plan: string[]): string[];
  /**
   * What a lookup by the event id alone may read whole: SQLite has no index on the id by itself
   * (migration 007) and reads its narrow unique (pg_cno, event_id) index instead; never a table.
   */
  eventIdScan: RegExp | null;
  indexes(tables?: string[]): Promise<string[]>;
  expectedIndexes: string[];
  expectedSearchIndexes: string[];
  /** The columns payment_search's rows are stored in the order of: SQLite's rowid, PostgreSQL's heap (insertion order either way). */
  searchStorage(): Promise<string>;
}

/**
 * The lookups that must stay index searches however large the inbox grows: they run on every
 * redelivery, on every console page and CLI call. Migration 006 dropped the indexes on
 * inbox.dedup_key, outbox.event_id and delivery_attempts.event_id, so each of these now goes
 * through the inbox's unique key, outbox.inbox_seq or delivery_attempts.outbox_seq. Migration 007
 * made SQLite's unique key (pg_cno, event_id): a redelivery is still one search, and an operator's
 * lookup by the event id alone reads that index whole (never the table) there.
 */
function queryPlansContract(open: () => Promise<PlanningDatabase & { close(): Promise<void> }>): void {
  let db: PlanningDatabase & { close(): Promise<void> };
  let delivered: InboxEntry;
  let dead: InboxEntry;
  let deliveredSeq: number;
  beforeEach(async () => {
    db = await open();
    delivered = inboxEntry({ pgCno: 'PLAN-1', shopOrderNo: 'ORDER-PLAN-1' });
    dead = inboxEntry({ pgCno: 'PLAN-2' });
    await db.run(writes.recordNotification(inboxRow(delivered)));
    await db.run(writes.recordNotification(inboxRow(dead)));
    const pending = (await db.run(reads.nextPending(10))).result;
    deliveredSeq = pending[0]!.seq;
    await db.run(writes.markDelivered([deliveredSeq], AT, 'file'));
    await db.run(writes.markDead(pending[1]!.seq, 'HTTP 400', AT, 'http'));
  });
  afterEach(async () => db.close());

  const search = { query: 'ORDER-PLAN-1', limit: 20, offset: 0 };
  const cases: Array<[string, () => Procedure<unknown>]> = [
    ['the duplicate lookup of a redelivery', () => writes.recordNotification(inboxRow(delivered))],
    ['a redelivery with another body, kept as a conflict', () => writes.recordNotification(inboxRow({ ...delivered, bodyHash: 'other' }))],
    ['the console search box given an order number or a pgCno', () => reads.searchEvents(search)],
    ['the search box with a state and dates', () => reads.searchEvents({ ...search, status: 'delivered', from: '2026-01-01', to: '2027-01-01' })],
    ['the console search by dates alone', () => reads.searchEvents({ from: '2026-01-01', to: '2027-01-01', limit: 20, offset: 0 })],
    ["the overview's chart of the last day", () => reads.eventActivity('2026-11-20T03:00:00.000Z')],
    ['a delivered batch and its history', () => writes.markDelivered([deliveredSeq], AT, 'file')],
    ['the backlog, on every readiness probe and metrics scrape', () => reads.backlog(Date.parse(AT))],
    ["the relay's head", () => reads.nextPending(100)],
    ['requeue all dead of a filter by type, in the writer', () => writes.requeueDeadMatching({ type: delivered.event.type }, AT, 'operator')],
    ['the console list of dead events of one type', () => reads.searchEvents({ status: 'dead', type: dead.event.type, limit: 20, offset: 0 })],
    ['a retention batch, hourly in the writer', () => writes.pruneExpired('9999-01-01', AT, 100)],
    ['notifications committed together: new ones, copies, a redelivery and a conflict', () => {
      const fresh = [inboxRow(inboxEntry({ pgCno: 'PLAN-3' })), inboxRow(inboxEntry({ pgCno: 'PLAN-4' }))];
      return recordNotifications([fresh[0]!, inboxRow(delivered), inboxRow({ ...delivered, bodyHash: 'other' }), fresh[0]!, fresh[1]!]);
    }],
  ];
  // Operators and console sessions: every console request finds its session, every
  // sign-in its operator. Listing the operators reads that table whole by design (it holds people).
  const hash = (n: number) => String(n).repeat(64);
  const limits = { idleMs: 30 * 60 * 1000, absoluteMs: 12 * 60 * 60 * 1000 };
  const now = Date.parse(AT);
  cases.push(
    ['adding an operator', () => writes.addOperator({ name: 'kim', role: 'operator', tokenHash: hash(1), createdAt: AT })],
    ['a sign-in by token, found by its hash', () => reads.findOperatorByTokenHash(hash(1))],
    ['a sign-in through single sign-on, found by name', () => reads.findOperator('kim')],
    ['replacing a token, which ends its sessions', () => writes.rotateOperatorToken('kim', hash(2), AT)],
    ['replacing the token of someone unknown', () => writes.rotateOperatorToken('nobody', hash(2), AT)],
    ['removing an operator and their sessions', () => writes.removeOperator('kim')],
    ['a sign-in creating its session', () => writes.createSession({ idHash: hash(3), operator: 'kim', csrfToken: 'csrf', tokenHash: hash(1), now })],
    ['every console request finding its session and role', () => reads.findSession(hash(3), { ...limits, now, bootstrapTokenHash: hash(4) })],
    ['a console request restarting the idle clock', () => writes.touchSession(hash(3), now, limits)],
    ['signing out', () => writes.endSession(hash(3))],
    ["ending an operator's sessions", () => writes.endSessionsOf('kim')],
    ['pruning expired sessions', () => writes.pruneExpiredSessions(now, limits)],
  );
  // The payment ledger: each verb finds its order by its key, the lists, the sweep and the
  // metric by their indexes (the open discrepancies' index is partial: it holds only those).
  const ledger = DEFAULT_LEDGER_SETTINGS;
  const order = { mallId: 'T0001234', shopOrderNo: 'ORDER-PLAN-1' };
  const withLedger = (pgCno: string, shopOrderNo = 'ORDER-PLAN-1') => inboxRow(inboxEntry({ pgCno, shopOrderNo }));
  cases.push(
    ['a notification naming an order', () => writes.recordNotification(withLedger('PLAN-5'))],
    ['notifications of several orders committed together', () =>
      recordNotifications([withLedger('PLAN-6', 'ORDER-PLAN-6'), withLedger('PLAN-7', 'ORDER-PLAN-7'), withLedger('PLAN-6', 'ORDER-PLAN-6')])],
    ['a projector batch: what follows its position, the orders it touches, their records and events, its position', () => writes.projectLedger(256, AT, ledger)],
    ["an expectation PUT, judged on the order's facts and its inputs not applied yet", () => writes.putExpectation(order, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }, AT)],
    ['resolving a discrepancy', () => writes.resolveDiscrepancy('dsc_plan', { by: 'kim', note: 'done', at: AT, actor: 'kim' })],
    ["the projector's position and what is stored, for a read that waits for it", () => reads.ledgerPosition()],
    ["the ledger's lag", () => reads.ledgerLag(now)],
    ['orders of the status ledger_error, counted for the metric', () => reads.countOrdersWithStatus('ledger_error')],
    ['the grace sweep', () => writes.sweepLedger(AT, 100, ledger)],
    ['a rebuild page after the first', () => writes.rebuildLedger(1, 100, AT, ledger)],
    ['a backfill page of stored notifications after the first', () => writes.backfillLedger(1, 100, AT, ledger)],
    ["an order's record", () => reads.getOrder(order)],
    ['an order by its number alone (the CLI)', () => reads.findOrders('ORDER-PLAN-1', 20)],
    ['orders of one status, after a cursor', () => reads.listOrders({ status: 'paid', after: 1, limit: 100 })],
    ['orders of every status, after a cursor', () => reads.listOrders({ after: 1, limit: 100 })],
    ['orders of one status, newest first, last changed in a range (the CLI)', () => reads.listOrders({ status: 'paid', newestFirst: true, from: AT, to: AT, after: 1000, limit: 50 })],
    ['open discrepancies, after a cursor', () => reads.listDiscrepancies({ open: true, after: { openedAt: AT, id: 'dsc_' }, limit: 100 })],
    ['every discrepancy, after a cursor', () => reads.listDiscrepancies({ open: false, after: { openedAt: AT, id: 'dsc_' }, limit: 100 })],
    ["the metric's count of open discrepancies", () => reads.openDiscrepancyCounts()],
    ['a wallet cancellation finding its order by pgCno', () => commandLedgerFacts(walletCancel('PLAN-1'))],
    ["the Orders search's hits read from their notifications by the inbox's unique key", () => hitDetails([['PLAN-1', delivered.event.id], ['PLAN-2', dead.event.id]])],
    ['the Orders search box given an order number, on days', () =>
      reads.searchPayments({ key: 'ORDER-PLAN-1', amounts: [], defaultCurrency: 'KRW', fromMs: 0, toMs: now, limit: 100 })],
    ['the Orders search box given a pgCno, a method and a status', () =>
      reads.searchPayments({ key: 'PLAN-1', amounts: [], defaultCurrency: 'KRW', method: '11', status: 'paid', limit: 100 })],
    ['the Orders search box given an approval number as a receipt prints it', () =>
      reads.searchPayments({ key: '4001 0002', codes: ['40010002'], amounts: [], defaultCurrency: 'KRW', limit: 100 })],
    ['the Orders search box given a bare amount: one lookup per currency, each in its orders only', () =>
      reads.searchPayments({ key: '12000', amounts: [{ amount: 12000, currency: 'KRW' }, { amount: 1200000, currency: 'USD' }], defaultCurrency: 'KRW', limit: 100 })],
    ['the Orders search box given an amount, a method, a status and days', () =>
      reads.searchPayments({ key: '12000', amounts: [{ amount: 12000, currency: 'KRW' }], defaultCurrency: 'KRW', method: '11', status: 'paid', fromMs: 0, toMs: now, limit: 100 })],
    // A cancel is checked against what is left of its payment: its order by pgCno, the payment's other cancels by theirs.
    ['a cancel checked against what is left of its payment and recorded', () => writes.createCancelCommand({
      kind: 'wallet-b.cancel', shopTransactionId: 'st-plan-cancel', mallId: 'T0001234', bodyHash: 'h', state: 'pending', at: AT, owner: 'plan', leaseUntil: now,
      request: { pgCno: 'PLAN-1', reviseTypeCode: '32', amountInfo: { currency: 'KRW', totAmount: 1000 } },
    }, ledger)],
    ["the order page's cancels recorded for a payment", () => reads.openCancels('PLAN-1')],
    ["a day page's orders, of one mall and of every mall", () => reads.dayOrders('2026-11-22', 'T0001234', 200)],
    ["a day page's orders of every mall", () => reads.dayOrders('2026-11-22', null, 200)],
  );
  const byEventIdAlone: Array<[string, () => Procedure<unknown>]> = [
    ['an event page', () => reads.getEvent(delivered.event.id)],
    ["an event's delivery history", () => reads.listDeliveryAttempts(delivered.event.id)],
    ['requeue of one event', () => writes.requeue(dead.event.id, AT, 'operator')],
    ['the console search box given an event id', () => reads.searchEvents({ ...search, query: delivered.event.id })],
    ['requeue all dead of a search', () => writes.requeueDeadMatching({ query: dead.event.id }, AT, 'operator')],
  ];

  test.each(cases)('%s is index searches only', async (name, procedure) => {
    const { statements } = await db.run(procedure());
    expect(statements.length).toBeGreaterThan(0);
    for (const { sql, plan } of statements) expect({ name, sql, fullScans: db.fullScans(plan) }).toEqual({ name, sql, fullScans: [] });
  });

  test.each(byEventIdAlone)('%s reads no table whole, at most the narrow unique index', async (name, procedure) => {
    const { result, statements } = await db.run(procedure());
    expect(result).toBeTruthy();
    const scans = statements.flatMap(({ plan }) => db.fullScans(plan));
    for (const scan of scans) expect({ name, scan, allowed: db.eventIdScan?.test(scan) ?? false }).toEqual({ name, scan, allowed: true });
  });

  test('a redelivery is found by its event id, and the one unique key decides', async () => {
    const { result, statements } = await db.run(writes.recordNotification(inboxRow(delivered)));
    expect(result).toEqual({ outcome: 'duplicate', eventId: delivered.event.id });
    expect(statements.map((s) => s.sql).join('\n')).toMatch(/FROM inbox WHERE \(pg_cno = (\?|\$1) AND event_id = (\?|\$2)\)/);
  });

  test('retention finds the delivery history of the events it prunes by outbox_seq', async () => {
    const { result, statements } = await db.run(writes.pruneExpired('9999-01-01', AT, 100));
    expect(result).toMatchObject({ events: 1 });
    const history = statements.filter((s) => /UPDATE delivery_attempts/.test(s.sql));
    expect(history).toHaveLength(1);
    expect(db.fullScans(history[0]!.plan)).toEqual([]);
  });

  test('inbox, outbox and the delivery history carry only these indexes', async () => {
    await expect(db.indexes()).resolves.toEqual(db.expectedIndexes);
  });

  test("the console search's rows are stored in insertion order and carry only the indexes its lookups use", async () => {
    await expect(db.indexes(['payment_search'])).resolves.toEqual(db.expectedSearchIndexes);
    await expect(db.searchStorage()).resolves.toBe('insertion order');
  });

  test('the ledger tables carry only these indexes', async () => {
    await expect(db.indexes(LEDGER_TABLES)).resolves.toEqual(EXPECTED_LEDGER_INDEXES);
  });
}

describe('query plans on SQLite', () => {
  queryPlansContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-plans-'));
    const file = join(dir, 'receiver.db');
    await openSqliteStore(file).close();
    const sqlite = new Database(file);
    sqlite.pragma('foreign_keys = ON');
    return {
      async run(procedure) {
        const statements = new RecordingStatements(sqlite);
        const result = sqlite.transaction(() => runOnSqlite(statements, procedure, { outboxChanged: false }))();
        return { result, statements: statements.ran.map((sql) => ({ sql, plan: explainSqlite(sqlite, sql) })) };
      },
      fullScans: (plan) => sqliteFullScans(sqlite, plan),
      eventIdScan: /^SCAN inbox USING COVERING INDEX inbox_pg_cno_event_id$/,
      indexes: async (tables) => sqliteIndexes(sqlite, tables),
      expectedIndexes: EXPECTED_INDEXES.sqlite,
      expectedSearchIndexes: EXPECTED_SEARCH_INDEXES.sqlite,
      // A WITHOUT ROWID table lies in its primary key's order; a rowid table in its rowids', max + 1 for each new row.
      searchStorage: async () => ((sqlite.prepare("SELECT wr FROM pragma_table_list WHERE name = 'payment_search'").get() as { wr: number }).wr === 0 ? 'insertion order' : 'key order'),
      close: async () => {
        sqlite.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

// A store whose statistics were taken young (`ANALYZE` while each table held a row or two, as the
// benches' seeds do) keeps them as it grows. The day's money is written beside every ledger batch
// and rebuild page: those writes must find each changed order's rows by its key whatever the
// statistics say, or each batch reads the summary tables whole (a rebuild of 20,000 orders took
// 445 s against 91 s for 10,000). Other statements can be misled by such statistics too, which is
// why docs/operations.md says not to ANALYZE the receiver's file.
describe('the summary writes on SQLite whose statistics were taken young', () => {
  let dir: string;
  let sqlite: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'noti-plans-young-'));
    const file = join(dir, 'receiver.db');
    sqlite = new Database(file);
    return openSqliteStore(file).close();
  });
  afterEach(() => {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = <T>(procedure: Procedure<T>): string[] => {
    const statements = new RecordingStatements(sqlite);
    sqlite.transaction(() => runOnSqlite(statements, procedure, { outboxChanged: false }))();
    return statements.ran;
  };
  const order = (n: number) => inboxRow(inboxEntry({ pgCno: `YOUNG-${n}`, shopOrderNo: `ORDER-YOUNG-${n}` }));

  test.each<[string, () => Procedure<unknown>]>([
    ['a projector batch', () => writes.projectLedger(256, AT, DEFAULT_LEDGER_SETTINGS)],
    ['a rebuild page after the first', () => writes.rebuildLedger(0, 100, AT, DEFAULT_LEDGER_SETTINGS)],
  ])('%s finds each order\'s summary rows by its key', (name, procedure) => {
    run(writes.recordNotification(order(1)));
    run(writes.projectLedger(256, AT, DEFAULT_LEDGER_SETTINGS));
    sqlite.exec('ANALYZE');
    // Statistics of one projected order: its payment's total and its status, and the day it has an event on.
    expect(sqlite.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'summary_daily' AND idx = 'summary_daily'").pluck().get()).toMatch(/^2 /);
    expect(sqlite.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'summary_order_days' AND idx = 'summary_order_days'").pluck().get()).toMatch(/^1 /);
    run(recordNotifications([order(2), order(3)]));
    const ran = run(procedure()).filter((sql) => /\bsummary_(daily|order_days)\b/.test(sql));
    expect(ran.length).toBeGreaterThanOrEqual(1);
    for (const sql of ran) expect({ name, sql, fullScans: sqliteFullScans(sqlite, explainSqlite(sqlite, sql)) }).toEqual({ name, sql, fullScans: [] });
  });
});

describePostgres('query plans on PostgreSQL', () => {
  queryPlansContract(async () => {
    const schema: TestSchema = await createTestSchema();
    const pool = createPool(schema.url, {});
    await migratePostgres(pool);
    await pool.end();
    const client = new Client({ connectionString: schema.url });
    await client.connect();
    // The tables are tiny: without this the planner rightly prefers reading them whole. With it,
    // a Seq Scan in a plan means no index could answer the statement.
    await client.query('SET enable_seqscan = off');
    const partialIndexes = new Set((await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_index ix JOIN pg_class c ON c.oid = ix.indexrelid
       WHERE ix.indpred IS NOT NULL AND c.relnamespace = current_schema()::regnamespace`,
    )).rows.map((row) => row.name));
    return {
      async run(procedure) {
        const ran: QueryConfig[] = [];
        const recording = {
          query: (config: QueryConfig) => {
            ran.push(config);
            return client.query(config);
          },
        } as unknown as PoolClient;
        await client.query('BEGIN');
        const result = await runOnPostgres(recording, 'plan', procedure, { outboxChanged: false });
        await client.query('COMMIT');
        const statements: Planned[] = [];
        for (const config of ran) {
          const explained = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({
            text: `EXPLAIN (FORMAT JSON) ${config.text}`,
            values: config.values as Param[],
          });
          statements.push({ sql: config.text, plan: planLines(explained.rows[0]!['QUERY PLAN'][0]!.Plan) });
        }
        return { result, statements };
      },
      // A Seq Scan reads a whole table; an index scan without an Index Cond reads a whole index.
      fullScans: (plan) =>
        plan.filter((line) => /^Seq Scan on (inbox|outbox|delivery_attempts|conflicts|operators|sessions|ledger_\w+|payment_search)\b/.test(line)
          || (/^Index (Only )?Scan\b[^(]*$/.test(line) && !partialIndexes.has(/ using (\w+)/.exec(line)?.[1] ?? ''))),
      eventIdScan: null,
      indexes: (tables) => postgresIndexes(async (sql, params) => (await client.query(sql, params)).rows, tables),
      expectedIndexes: EXPECTED_INDEXES.postgres,
      expectedSearchIndexes: EXPECTED_SEARCH_INDEXES.postgres,
      // A heap takes each row where there is room, the table's end for a table never updated; CLUSTER alone would order it by an index.
      searchStorage: async () => ((await client.query("SELECT count(*) AS n FROM pg_index WHERE indrelid = 'payment_search'::regclass AND indisclustered")).rows[0].n === '0' ? 'insertion order' : 'key order'),
      close: async () => {
        await client.end();
        await schema.drop();
      },
    };
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** One line per node, e.g. `Index Scan using inbox_event_id_key on inbox (event_id = $1)`. */
function planLines(node: PlanNode): string[] {
  const line = [
    node['Node Type'],
    node['Index Name'] ? ` using ${node['Index Name']}` : '',
    node['Relation Name'] ? ` on ${node['Relation Name']}` : '',
    node['Index Cond'] ? ` ${node['Index Cond']}` : '',
  ].join('');
  return [line, ...(node.Plans ?? []).flatMap(planLines)];
}

/**
 * `SCAN t` reads the whole table, `SCAN t USING … INDEX` a whole index; `SEARCH` is a lookup.
 * `SCAN 3-ROW VALUES CLAUSE` reads a multi-row insert's own rows (`SCAN 3 CONSTANT ROWS` when
 * they hold scalar subqueries), `SCAN CONSTANT ROW` a SELECT without FROM (scalar subqueries
 * side by side): no table. `SCAN head` after `CO-ROUTINE head` reads the rows a subquery of the
 * statement produced (the relay's page: its head's LIMIT rows), not a table.
 */
function sqliteFullScans(sqlite: Database.Database, plan: string[]): string[] {
  const partial = partialIndexesOf(sqlite);
  const ownRows = new Set(plan.flatMap((line) => /^(?:CO-ROUTINE|MATERIALIZE) (.+)$/.exec(line)?.[1] ?? []));
  return plan.filter((line) => line.startsWith('SCAN ') && !/^SCAN (\d+-ROW VALUES CLAUSE|\d+ CONSTANT ROWS|CONSTANT ROW)$/.test(line)
    && !ownRows.has(line.slice('SCAN '.length))
    && !partial.has(/ USING (?:COVERING )?INDEX (\w+)/.exec(line)?.[1] ?? ''));
}

function partialIndexesOf(db: Database.Database): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '% WHERE %'").all() as Array<{ name: string }>;
  return new Set(rows.map((row) => row.name));
}

/** Remembers the SQL of every statement a procedure prepared, in order. */
class RecordingStatements extends StatementCache {
  readonly ran: string[] = [];
  override get(sql: string) {
    this.ran.push(sql);
    return super.get(sql);
  }
}

function explainSqlite(db: Database.Database, sql: string): string[] {
  // The plan does not depend on the values (no ANALYZE statistics): bind NULL to every `?`.
  const nulls = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null);
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...nulls) as Array<{ detail: string }>).map((row) => row.detail);
  // For an INSERT into a parent table SQLite also plans a look-up of the child rows that reference
  // the new key, e.g. `SCAN conflicts` (conflicts.inbox_seq has no index in SQLite). It runs only
  // while a foreign-key violation is outstanding (OP_FkIfZero skips it otherwise), so never here.
  const target = /^\s*INSERT INTO (\w+)/.exec(sql)?.[1];
  if (target === undefined) return plan;
  const children = new Set(
    (db.prepare(`SELECT m.name FROM sqlite_schema m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND f."table" = ?`)
      .all(target) as Array<{ name: string }>).map((row) => row.name),
  );
  return plan.filter((line) => !(/^SCAN (\w+)$/.test(line) && children.has(line.slice('SCAN '.length))));
}
