import { readMigrations } from '../../src/store/migrations';
import { LOCK_KIND } from '../../src/store/postgres/advisory-locks';
import { migrate } from '../../src/store/postgres/migrate';
import { createPool } from '../../src/store/postgres/pool';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import type { RecordResult, Store } from '../../src/store/store';
import { inboxEntry } from '../helpers/stored-events';
import { admin, createTestSchema, describePostgres, TEST_POSTGRES_URL, type TestSchema } from './pg-test-database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(condition: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > withinMs) throw new Error(`condition not met within ${withinMs} ms`);
    await sleep(50);
  }
  return Date.now() - started;
}

/** Two stores on one schema, each with its own pool: two replicas as far as PostgreSQL can tell. */
describePostgres('PostgreSQL store shared by several replicas', () => {
  let schema: TestSchema;
  const opened: Store[] = [];
  const replica = async () => {
    const store = await openPostgresStore(schema.url);
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close().catch(() => undefined)));
    await schema.drop();
  });

  test('replicas starting together on an empty schema all start, and each migration runs once', async () => {
    const stores = await Promise.all(Array.from({ length: 5 }, () => openPostgresStore(schema.url)));
    opened.push(...stores);
    const applied = await admin(schema.url, 'SELECT version, count(*)::int AS times FROM schema_migrations GROUP BY version ORDER BY version');
    expect(applied).toEqual(readMigrations('postgres').map((migration) => ({ version: migration.version, times: 1 })));
    expect(applied.length).toBeGreaterThanOrEqual(1);
    await expect(stores[4]!.record(inboxEntry())).resolves.toMatchObject({ outcome: 'accepted' });
  });

  test('a migration slower than the statement timeout for acks still applies, and a replica starting meanwhile waits for it', async () => {
    // 006 builds an index over the whole delivery history; under the acks' timeout it would fail at every start.
    const slow = [{ version: 1, name: '001_slow', sql: 'SELECT pg_sleep(1.5); CREATE TABLE slow_done (id INTEGER)', announce: null }];
    const pools = [createPool(schema.url, { statementTimeoutMs: 300 }), createPool(schema.url, { statementTimeoutMs: 300 })];
    try {
      const first = migrate(pools[0]!, { migrations: slow });
      await sleep(300);
      await Promise.all([first, migrate(pools[1]!, { migrations: slow })]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    await expect(admin(schema.url, 'SELECT version FROM schema_migrations')).resolves.toEqual([{ version: 1 }]);
  });

  test('the same notifications hammered at two replicas are accepted exactly once per dedup key', async () => {
    const [a, b] = [await replica(), await replica()];
    const keys = [];
    for (let p = 0; p < 5; p++) {
      const pgCno = `H${p}`;
      keys.push(inboxEntry({ notiType: '10', pgCno }));
      keys.push(inboxEntry({ notiType: '20', pgCno, cancelPgCno: `${pgCno}-C1` }));
      keys.push(inboxEntry({ notiType: '20', pgCno, cancelPgCno: `${pgCno}-C2` }));
      keys.push(inboxEntry({ notiType: '40', pgCno, statusCode: 'ES02' }));
    }
    const copies = 25;
    // All in flight at once, copies of one key back to back and alternating replicas, so both pools'
    // connections race on the same key: that is where a wrong ON CONFLICT shows.
    const sends: Array<Promise<RecordResult>> = [];
    for (const entry of keys) {
      for (let copy = 0; copy < copies; copy++) sends.push(copy % 2 === 0 ? a.record(entry) : b.record(entry));
    }
    const results = await Promise.all(sends);

    for (const entry of keys) {
      const outcomes = results.filter((result) => result.eventId === entry.event.id).map((result) => result.outcome);
      expect(outcomes.filter((outcome) => outcome === 'accepted')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(copies - 1);
    }
    expect(results).toHaveLength(keys.length * copies);
    const [counts] = await admin(schema.url, `SELECT (SELECT count(*)::int FROM outbox) AS outbox,
      (SELECT sum(redeliveries)::int FROM inbox) AS redeliveries, (SELECT count(*)::int FROM conflicts) AS conflicts`);
    expect(counts).toEqual({ outbox: keys.length, redeliveries: keys.length * (copies - 1), conflicts: 0 });
  });

  test('two replicas receiving the same notification at the same instant never answer 503 for it', async () => {
    // The window is microseconds wide (both copies pass the dedup check before either writes its
    // index entries), so it takes many simultaneous pairs to hit; when dedup_key was a second unique
    // key (before migration 006), a conflict target on it alone failed here with a unique violation
    // on event_id about once in 200 pairs.
    const [a, b] = [await replica(), await replica()];
    for (let round = 0; round < 10; round++) {
      const pairs = Array.from({ length: 200 }, (_, k) => inboxEntry({ pgCno: `PAIR${round}-${k}` }));
      const results = await Promise.all(pairs.flatMap((entry) => [a.record(entry), b.record(entry)]));
      expect(results.filter((result) => result.outcome === 'accepted')).toHaveLength(pairs.length);
      expect(results.filter((result) => result.outcome === 'duplicate')).toHaveLength(pairs.length);
    }
  });

  test('the relay never sees a later event while an earlier one is still committing on another replica', async () => {
    const [a, b] = [await replica(), await replica()];
    const approval = inboxEntry({ notiType: '10', pgCno: 'S1' });
    const cancel = inboxEntry({ notiType: '20', pgCno: 'S1', cancelPgCno: 'S1-C1' });
    // Stretch the approval's transaction after its outbox row is written, as a slow replica would.
    await admin(schema.url, `CREATE FUNCTION slow_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.event_id = '${approval.event.id}' THEN PERFORM pg_sleep(1); END IF; RETURN NEW; END $$`);
    await admin(schema.url, 'CREATE TRIGGER slow_outbox AFTER INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION slow_outbox()');

    const approving = a.record(approval);
    await sleep(200);
    const cancelling = b.record(cancel);
    const seen: string[][] = [];
    let done = false;
    const all = Promise.all([approving, cancelling]).finally(() => (done = true));
    while (!done) {
      seen.push((await a.nextPending(10)).map((row) => row.eventId));
      await sleep(20);
    }
    await all;
    seen.push((await a.nextPending(10)).map((row) => row.eventId));

    const inOrder = [approval.event.id, cancel.event.id];
    expect(seen.length).toBeGreaterThan(10);
    for (const observed of seen) expect(observed).toEqual(inOrder.slice(0, observed.length));
    expect(seen.at(-1)).toEqual(inOrder);
  });

  test('one relay at a time: another replica takes over within seconds when the holder closes', async () => {
    const [a, b] = [await replica(), await replica()];
    await expect(a.holdsRelayLock()).resolves.toBe(true);
    await expect(b.holdsRelayLock()).resolves.toBe(false);
    await expect(a.holdsRelayLock()).resolves.toBe(true);
    await expect(b.holdsRelayLock()).resolves.toBe(false);

    await a.close();
    expect(await eventually(() => b.holdsRelayLock(), 5000)).toBeLessThan(5000);
  });

  test('when the holder loses its connection, it stops relaying and another replica takes over', async () => {
    const [a, b] = [await replica(), await replica()];
    await expect(a.holdsRelayLock()).resolves.toBe(true);
    await expect(b.holdsRelayLock()).resolves.toBe(false);

    // The relay lock's objid is the schema hash as an unsigned 32-bit value (see advisory-locks.ts).
    const terminated = await admin(TEST_POSTGRES_URL!, `SELECT pg_terminate_backend(pid) AS ok FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = $1::bigint::oid
        AND objid = (hashtext($2)::bigint & 4294967295)::oid`, [LOCK_KIND.relay, schema.name]);
    expect(terminated).toEqual([{ ok: true }]);

    expect(await eventually(() => b.holdsRelayLock(), 5000)).toBeLessThan(5000);
    await expect(a.holdsRelayLock()).resolves.toBe(false);
  });

  test("a commit on one replica wakes the relay on another without waiting for its poll", async () => {
    const [a, b] = [await replica(), await replica()];
    await b.holdsRelayLock();
    let woken = 0;
    b.onNewEvents(() => woken++);
    await a.record(inboxEntry({ pgCno: 'N1' }));
    expect(await eventually(async () => woken > 0, 2000)).toBeLessThan(2000);
  });
});
