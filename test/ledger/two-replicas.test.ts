import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, changeNotification } from '../../src/simulator/notification-builders';
import { Client, type PoolClient } from 'pg';
import { DEFAULT_LEDGER_SETTINGS } from '../../src/ledger/ledger-settings';
import { runProcedure } from '../../src/store/postgres/run-procedure';
import { inboxRow } from '../../src/store/procedures/inbox-row';
import { recordNotification } from '../../src/store/procedures/record-notification';
import { openStores, type Stores } from '../../src/store/open-stores';
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
      ...Array.from({ length: 12 }, (_, i) => approvalNotification({ ...order, pgCno: `2611211200000000${String(i).padStart(4, '0')}`, amount: '1000', approvalDate: stamp(i) })),
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

  test("the order's own lock keeps two transactions from computing from a stale set of facts, even without the outbox-order lock", async () => {
    // The group commit's outbox-order lock happens to serialise every write transaction today; the
    // ledger must not depend on it. Two raw transactions that skip it, one notification each, at once.
    const order = { mallId: 'T0001234', shopOrderNo: 'ORD-ROW-LOCK' };
    const clients = [new Client({ connectionString: schema.url }), new Client({ connectionString: schema.url })];
    for (const client of clients) await client.connect();
    try {
      const record = async (client: Client, i: number) => {
        const entry = entryOf(approvalNotification({ ...order, pgCno: `2611211200000009${String(i).padStart(4, '0')}`, amount: '1000', approvalDate: stamp(i) }), i);
        await client.query('BEGIN');
        await runProcedure(client as unknown as PoolClient, 'test', recordNotification(inboxRow(entry), DEFAULT_LEDGER_SETTINGS), { outboxChanged: false, orderLocked: true });
        await client.query('COMMIT');
      };
      await record(clients[0]!, 0);
      for (let i = 1; i < 21; i += 2) await Promise.all([record(clients[0]!, i), record(clients[1]!, i + 1)]);
      const stored = await replicas[0]!.ledger.getOrder(order);
      expect(stored!.events).toHaveLength(21);
      expect(stored!.approved).toBe(21000);
    } finally {
      for (const client of clients) await client.end();
    }
  });
});
