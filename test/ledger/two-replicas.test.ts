import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, changeNotification } from '../../src/simulator/notification-builders';
import { Client, type PoolClient } from 'pg';
import { runProcedure, writeTransaction } from '../../src/store/postgres/run-procedure';
import { inboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import { recordNotification } from '../../src/store/procedures/inbox-outbox/record-notification';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { entryOf } from '../store/ledger-entries';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';

const BASE_MS = Date.UTC(2026, 10, 21, 3, 0, 0);
const stamp = (minutes: number) => kstStamp(new Date(BASE_MS + minutes * 60_000));

describePostgres('two PostgreSQL replicas and one order', () => {
  let schema: TestSchema;
  let replicas: Stores[];
  beforeEach(async () => {
    schema = await createTestSchema();
    replicas = [await openStores(schema.url), await openStores(schema.url)];
  });
  afterEach(async () => {
    for (const replica of replicas) await replica.store.close();
    await schema.drop();
  });

  test("notifications of one order arriving at both replicas at once lose no update: the record holds each, and equals the rebuild's", async () => {
    const order = { mallId: 'T0001234', shopOrderNo: 'ORD-REPLICAS' };
    const bodies = [
      ...Array.from({ length: 12 }, (_, i) => approvalNotification({ ...order, pgCno: `2611211200000000${String(i).padStart(4, '0')}`, amount: '1000', transactionDate: stamp(i) })),
      ...Array.from({ length: 12 }, (_, i) => changeNotification({
        ...order, pgCno: `2611211200000000${String(i).padStart(4, '0')}`, cancelPgCno: `2611211200000001${String(i).padStart(4, '0')}`,
        cancelAmount: '500', amount: '500', remainAmount: '500', cancelDate: stamp(i + 1),
      })),
    ];
    const entries = bodies.map((body, i) => entryOf(body, i % 3));
    // Two at a time, one at each replica at the same moment, the order's row already there; then
    // everything again at once (redeliveries).
    for (let i = 0; i < entries.length; i += 2) await Promise.all([replicas[0]!.store.record(entries[i]!), replicas[1]!.store.record(entries[i + 1]!)]);
    await Promise.all(entries.map((entry, i) => replicas[i % 2]!.store.record(entry)));
    const record = await replicas[0]!.ledger.getOrder(order);
    expect(record).toMatchObject({ approved: 12000, cancelled: 6000, remaining: 6000 });
    expect(record!.events).toHaveLength(entries.length);
    expect(await replicas[1]!.ledger.rebuildPage(null, 10, new Date(BASE_MS + 5 * 60_000).toISOString())).toEqual({ orders: 1, changed: 0, next: null });
  });

  test('a write transaction waits for the one in flight (the outbox-order lock, taken as it begins), so inbox seqs become visible in their order and the projector skips none', async () => {
    // A raw transaction that began as every write transaction does (writeTransaction) and has
    // recorded one notification of the order, not yet committed, its seq drawn: a replica's
    // notification must wait for it, so it cannot commit a higher seq first, which a projector
    // reading `seq > position` would pass over the lower one for; the record then holds both.
    const order = { mallId: 'T0001234', shopOrderNo: 'ORD-SERIAL' };
    const entry = (i: number) => entryOf(approvalNotification({ ...order, pgCno: `2611211200000009${String(i).padStart(4, '0')}`, amount: '1000', transactionDate: stamp(i) }), i);
    const client = new Client({ connectionString: schema.url, application_name: 'test-holder' });
    await client.connect();
    try {
      const effects = { outboxChanged: false, orderLocked: true };
      await client.query(writeTransaction(effects).begin);
      await runProcedure(client as unknown as PoolClient, 'test', recordNotification(inboxRow(entry(0))), effects);
      const waiting = replicas[0]!.store.record(entry(1));
      // The replica's transaction is seen waiting for the advisory lock before the holder commits.
      for (;;) {
        // pg_stat_activity is read once per transaction and kept until it ends: without clearing it,
        // a holder that looked before the replica's statement arrived would never see it waiting.
        await client.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await client.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'payment-noti-receiver' AND wait_event_type = 'Lock' AND wait_event = 'advisory'",
        );
        if (rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await client.query('COMMIT');
      await expect(waiting).resolves.toMatchObject({ outcome: 'accepted' });
      const stored = await replicas[1]!.ledger.getOrder(order);
      expect(stored!.events).toHaveLength(2);
      expect(stored!.approved).toBe(2000);
      expect(await replicas[1]!.ledger.rebuildPage(null, 10, new Date(BASE_MS + 5 * 60_000).toISOString())).toEqual({ orders: 1, changed: 0, next: null });
    } finally {
      await client.end();
    }
  });
});
