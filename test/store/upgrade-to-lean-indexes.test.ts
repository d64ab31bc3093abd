import { inboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandEvent } from '../../src/commands/command-event';
import { readMigrations } from '../../src/store/migrations';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { reads, writes } from '../../src/store/procedures';
import { all } from '../../src/store/procedures/procedure';
import { migrate as migrateSqlite } from '../../src/store/sqlite/migrate';
import { runProcedure as runOnSqlite, StatementCache } from '../../src/store/sqlite/run-procedure';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import { inboxEntry } from '../helpers/stored-events';
import { admin, describePostgres } from './pg-test-database';
import { ownEntryBefore027, postgresAtVersion, sqliteAtVersion, type OlderReleaseDatabase } from './older-release-database';
import { EXPECTED_INDEXES, postgresIndexes, sqliteIndexes } from './schema-indexes';

const BEFORE_LEAN_INDEXES = 5;
/** Migration 007: SQLite's unique key became (pg_cno, event_id). */
const BEFORE_ORDERED_KEY = 6;
const at = (day: number) => new Date(Date.UTC(2026, 0, day, 3)).toISOString();

/** A database the release before migration 006 left behind, and the current store opened on it. */
interface OldDatabase extends OlderReleaseDatabase {
  indexes(): Promise<string[]>;
  /** Opening migrates, as the service does at start. */
  openStore(): Promise<Store>;
}

function upgradeContract(openOld: () => Promise<OldDatabase>, expectedIndexes: string[]): void {
  let old: OldDatabase;
  let store: Store | null = null;
  beforeEach(async () => {
    old = await openOld();
  });
  afterEach(async () => {
    await store?.close();
    store = null;
    await old.cleanup();
  });

  const delivered = inboxEntry({ pgCno: 'UP-DELIVERED', receivedAt: at(20) });
  const dead = inboxEntry({ pgCno: 'UP-DEAD', receivedAt: at(21) });
  const pending = inboxEntry({ pgCno: 'UP-PENDING', receivedAt: at(22) });
  const pruned = inboxEntry({ pgCno: 'UP-PRUNED', receivedAt: at(2) });
  const changed = inboxEntry({ pgCno: 'UP-DELIVERED', receivedAt: at(23), data: { amount: '99000' } });

  /** Every state the inbox, outbox, delivery history and conflicts can hold. */
  async function fill(): Promise<void> {
    for (const entry of [pruned, delivered, dead, pending]) await old.write(writes.recordNotification(inboxRow(entry)));
    // Its own read of the outbox: today's nextPending names columns later migrations added.
    const [prunedRow, deliveredRow, deadRow, pendingRow] = await old.write(all<{ seq: number }>('SELECT seq FROM outbox ORDER BY seq'));
    await old.write(writes.markDelivered([prunedRow!.seq, deliveredRow!.seq], at(24), 'file'));
    await old.write(writes.markRetry(deadRow!.seq, 'connect ECONNREFUSED', Date.parse(at(25)), at(24), 'amqp'));
    await old.write(writes.markDead(deadRow!.seq, 'HTTP 400', at(25), 'amqp'));
    await old.write(writes.markRetry(pendingRow!.seq, 'timeout', Date.parse(at(26)), at(25), 'amqp'));
    await old.write(writes.requeue(dead.event.id, at(26), 'operator'));
    await old.write(writes.markDead(deadRow!.seq, 'HTTP 400 again', at(27), 'amqp'));
    await expect(old.write(writes.recordNotification(inboxRow(delivered)))).resolves.toMatchObject({ outcome: 'duplicate' });
    await expect(old.write(writes.recordNotification(inboxRow(changed)))).resolves.toMatchObject({ outcome: 'conflict' });
    await expect(old.write(writes.pruneExpired(at(10), at(28), 100))).resolves.toMatchObject({ events: 1 });
    // A command's final state travels as the service's own inbox entry, as that release stored it.
    const owner = 'worker-1';
    await old.write(writes.createCommand({
      kind: 'wallet-b.cancel', shopTransactionId: 'UP-CMD-1', mallId: 'T0001234', bodyHash: 'h', request: { pgCno: 'UP-DELIVERED' },
      state: 'pending', at: at(28), owner, leaseUntil: Date.parse(at(29)),
    }));
    await old.write(writes.beginCommandAttempt({
      shopTransactionId: 'UP-CMD-1', owner, operation: 'wallet-b.cancel', request: { pgCno: 'UP-DELIVERED' }, state: 'pending', at: at(28), leaseUntil: Date.parse(at(29)),
    }));
    const record = {
      command: 'wallet-b.cancel' as const, shopTransactionId: 'UP-CMD-1', mallId: 'T0001234', state: 'succeeded' as const, attempts: 1,
      request: { pgCno: 'UP-DELIVERED' }, response: { resCd: '0000' }, lastError: null, createdAt: at(28), updatedAt: at(28),
    };
    await old.write(writes.finishCommandAttempt({
      shopTransactionId: 'UP-CMD-1', owner, n: 1, at: at(28), httpStatus: 200, response: { resCd: '0000' }, answerText: null,
      error: null, state: 'succeeded', nextAttemptAt: 0, event: null,
    }));
    await old.write(ownEntryBefore027('command', commandEvent('wallet.cancel.succeeded', record), at(28)));
  }

  const snapshot = async () => ({
    inbox: await old.rows('SELECT * FROM inbox ORDER BY seq'),
    outbox: await old.rows('SELECT * FROM outbox ORDER BY seq'),
    deliveryAttempts: await old.rows('SELECT * FROM delivery_attempts ORDER BY id'),
    conflicts: await old.rows('SELECT * FROM conflicts ORDER BY id'),
  });

  test('every row keeps its seq, its references and its content, and only the new indexes remain', async () => {
    await fill();
    const before = await snapshot();
    expect(before.inbox).toHaveLength(5);
    expect(before.outbox.map((row) => row.status)).toEqual(['delivered', 'delivered', 'dead', 'pending', 'pending']);
    expect(before.deliveryAttempts).toHaveLength(7);
    expect(before.conflicts).toHaveLength(1);

    store = await old.openStore();
    const after = await snapshot();
    // Migration 012 (the outbox's trace context, tracing on only) adds a column, NULL on every old row.
    expect(after.outbox.map((row) => row.trace_context)).toEqual(before.outbox.map(() => null));
    // Migration 027 names each inbox row's origin, and the command's entry its source by it.
    expect(after.inbox.map((row) => [row.origin, row.source_ip])).toEqual(before.inbox.map((row) => (row.source_ip === 'internal' ? ['command', 'command'] : ['gateway', row.source_ip])));
    expect({
      ...after,
      inbox: after.inbox.map(({ origin: _added, source_ip: _named, ...row }) => row),
      outbox: after.outbox.map(({ trace_context: _added, ...row }) => row),
    }).toEqual({ ...before, inbox: before.inbox.map(({ source_ip: _named, ...row }) => row) });
    await expect(old.indexes()).resolves.toEqual(expectedIndexes);
  });

  test('notifications stored before the upgrade are still recognised: a redelivery is a duplicate, a changed body a conflict', async () => {
    await fill();
    const historyBefore = await old.write(reads.listDeliveryAttempts(dead.event.id));
    store = await old.openStore();

    await expect(store.record(delivered)).resolves.toEqual({ outcome: 'duplicate', eventId: delivered.event.id });
    await expect(store.record(pending)).resolves.toEqual({ outcome: 'duplicate', eventId: pending.event.id });
    // Retention emptied its body and data but kept the row: a late resend is still a duplicate.
    await expect(store.record(pruned)).resolves.toEqual({ outcome: 'duplicate', eventId: pruned.event.id });
    await expect(store.record(changed)).resolves.toEqual({ outcome: 'conflict', eventId: delivered.event.id });
    expect((await store.getEvent(delivered.event.id))?.redeliveries).toBe(2);
    expect(await store.conflictsOfEvent(delivered.event.id)).toHaveLength(2);

    await expect(store.deliveryAttempts(dead.event.id)).resolves.toEqual(historyBefore);
    expect(historyBefore.map((attempt) => attempt.outcome)).toEqual(['retry', 'dead', 'requeued', 'dead']);
  });

  test('new rows are numbered after the old ones and the relay keeps arrival order', async () => {
    await fill();
    const [maxBefore] = await old.rows('SELECT (SELECT max(seq) FROM inbox) AS inbox, (SELECT max(seq) FROM outbox) AS outbox');
    store = await old.openStore();

    const fresh = inboxEntry({ pgCno: 'UP-NEW' });
    await expect(store.record(fresh)).resolves.toEqual({ outcome: 'accepted', eventId: fresh.event.id });
    await expect(store.requeue(dead.event.id)).resolves.toBe(true);
    const queued = await store.nextPending(10);
    expect(queued.map((row) => row.eventId)).toEqual([
      dead.event.id, pending.event.id, expect.stringMatching(/^evt_cmd_/), fresh.event.id,
    ]);
    const [maxAfter] = await old.rows('SELECT (SELECT max(seq) FROM inbox) AS inbox, (SELECT max(seq) FROM outbox) AS outbox');
    expect(Number(maxAfter!.inbox)).toBe(Number(maxBefore!.inbox) + 1);
    expect(Number(maxAfter!.outbox)).toBe(Number(maxBefore!.outbox) + 1);
    await expect(store.deliveryAttempts(dead.event.id)).resolves.toEqual(
      expect.arrayContaining([expect.objectContaining({ outcome: 'requeued', actor: null })]),
    );
  });
}

/** A SQLite database migrated up to `version`, as that release left it. */
function oldSqliteDatabase(version: number): () => Promise<OldDatabase> {
  return async () => {
    const old = sqliteAtVersion(version);
    return { ...old, indexes: async () => sqliteIndexes(old.db), openStore: async () => openSqliteStore(old.file) };
  };
}

describe('upgrading a SQLite database from before migration 007', () => {
  upgradeContract(oldSqliteDatabase(BEFORE_ORDERED_KEY), EXPECTED_INDEXES.sqlite);
});

describe('upgrading a SQLite database to migration 006', () => {
  upgradeContract(oldSqliteDatabase(BEFORE_LEAN_INDEXES), EXPECTED_INDEXES.sqlite);

  test('inbox and outbox no longer keep a counter in sqlite_sequence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-upgrade-'));
    const file = join(dir, 'receiver.db');
    try {
      const db = new Database(file);
      migrateSqlite(db, { migrations: readMigrations('sqlite').filter((m) => m.version <= BEFORE_LEAN_INDEXES) });
      db.transaction(() => runOnSqlite(new StatementCache(db), writes.recordNotification(inboxRow(inboxEntry({ pgCno: 'SEQ-1' }))), { outboxChanged: false }))();
      const counters = () => db.prepare(`SELECT name FROM sqlite_sequence WHERE name IN ('inbox', 'outbox') ORDER BY name`).all();
      expect(counters()).toEqual([{ name: 'inbox' }, { name: 'outbox' }]);
      migrateSqlite(db);
      db.transaction(() => runOnSqlite(new StatementCache(db), writes.recordNotification(inboxRow(inboxEntry({ pgCno: 'SEQ-2' }))), { outboxChanged: false }))();
      expect(counters()).toEqual([]);
      expect(db.prepare('SELECT seq FROM inbox ORDER BY seq').all()).toEqual([{ seq: 1 }, { seq: 2 }]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describePostgres('upgrading a PostgreSQL database to migration 006', () => {
  upgradeContract(async () => {
    const old = await postgresAtVersion(BEFORE_LEAN_INDEXES);
    return { ...old, indexes: () => postgresIndexes((sql, params) => admin(old.url, sql, params)), openStore: () => openPostgresStore(old.url) };
}, EXPECTED_INDEXES.postgres);
});
