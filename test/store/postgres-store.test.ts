import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import { Client } from 'pg';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { openStores } from '../../src/ledger/projector/open-stores';
import type { Store } from '../../src/store/store';
import { inboxEntry } from '../helpers/stored-events';
import { eventually } from '../helpers/eventually';
import { PgWireProxy } from '../helpers/pg-wire-proxy';
import { createTestSchema, describePostgres, postgresAddress, withAddress, type TestSchema } from './pg-test-database';
import { storeContract } from './store-contract';

describePostgres('PostgreSQL store', () => {
  storeContract(async () => {
    const schema = await createTestSchema();
    const store = await openPostgresStore(schema.url);
    return {
      store,
      cleanup: async () => {
        await store.close();
        await schema.drop();
      },
    };
  });
});

describePostgres('PostgreSQL store round trips', () => {
  let schema: TestSchema;
  let store: Store;
  beforeEach(async () => {
    schema = await createTestSchema();
    store = await openPostgresStore(schema.url);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
    await schema.drop();
  });

  test('notifications arriving together cost a few statements for the whole batch, not a few each', async () => {
    await store.record(inboxEntry({ pgCno: 'RT-warm' }));
    const fresh = Array.from({ length: 50 }, (_, i) => inboxEntry({ pgCno: `RT${i}` }));
    const sent = [...fresh, fresh[0]!, inboxEntry({ pgCno: 'RT1', data: { amount: '13000' } })];
    const queries = jest.spyOn(Client.prototype, 'query');
    const results = await Promise.all(sent.map((entry) => store.record(entry)));
    expect(results.map((result) => result.outcome)).toEqual([...fresh.map(() => 'accepted'), 'duplicate', 'conflict']);
    // All in one transaction: 7 statements (BEGIN with the outbox-order lock, inbox, the keys'
    // lookup, outbox, the redelivery count, the conflict, NOTIFY with COMMIT), in two round trips
    // (below). If the first write found the writer idle it commits alone first, in 5. One by one
    // it was 2-3 a notification.
    expect(queries.mock.calls.length).toBeLessThanOrEqual(11);
  });

  /**
   * The statements the store sends before it waits for an answer, round trip by round trip: the
   * proxy holds PostgreSQL's answers back until the client has sent `expected[i]` (in a
   * transaction's pipeline it sends a whole trip without waiting), then lets them through.
   */
  async function roundTrips(run: (target: Store) => Promise<unknown>, expected: number[], open = openPostgresStore): Promise<string[][]> {
    const proxy = new PgWireProxy(postgresAddress());
    await proxy.start();
    const proxied = await open(withAddress(schema.url, '127.0.0.1', proxy.port));
    try {
      await proxied.ping();
      const trips: string[][] = [];
      proxy.holdAnswers();
      let from = proxy.statements.length;
      const done = run(proxied);
      for (const count of expected) {
        await eventually(() => proxy.statements.length - from >= count, 5000, `${count} statements sent before an answer came back`).catch((e) => { throw new Error(`${e.message}: ${JSON.stringify(proxy.statements.slice(from))} / ${JSON.stringify(trips)}`); });
        trips.push(proxy.statements.slice(from).map((sql) => sql.replace(/\s+/g, ' ').split(' ').slice(0, 3).join(' ')));
        from = proxy.statements.length;
        proxy.release();
        proxy.holdAnswers();
      }
      proxy.release();
      await done;
      return trips;
    } finally {
      await proxied.close();
      await proxy.close();
    }
  }

  test('a batch with new notifications, a redelivery and a conflict is two round trips', async () => {
    const stored = inboxEntry({ pgCno: 'FL-stored' });
    await store.record(stored);
    const batch = [inboxEntry({ pgCno: 'FL1' }), inboxEntry({ pgCno: 'FL2' }), stored, inboxEntry({ pgCno: 'FL-stored', data: { amount: '1' } })];
    // The first write finds the group commit idle and commits alone; the others, asked for while it
    // is in flight, share the next transaction.
    const trips = await roundTrips((target: Store) => Promise.all(batch.map((entry) => target.record(entry))), [3, 2, 3, 4]);
    const transaction = (middle: string[]) => [
      // BEGIN with the outbox-order lock, the inbox insert and the lookup of every key.
      [expect.stringMatching(/^BEGIN; SELECT pg_advisory_xact_lock/), 'INSERT INTO inbox', 'SELECT seq, event_id,'],
      // The writes that need those answers, and NOTIFY (wakes the relays) with COMMIT behind them:
      // nothing waits for the writes' answers before committing (lastTrip).
      [...middle, expect.stringMatching(/^SELECT pg_notify/)],
    ];
    expect(trips).toEqual([
      ...transaction(['INSERT INTO outbox']),
      // The outbox row of the new one, the redelivery's count, the conflict.
      ...transaction(['INSERT INTO outbox', 'UPDATE inbox SET', 'INSERT INTO conflicts']),
    ]);
  });

  test('with the payment ledger on, the ack is the same two round trips: nothing of the ledger rides on it', async () => {
    const stored = inboxEntry({ pgCno: 'FL-stored' });
    await store.record(stored);
    const batch = [inboxEntry({ pgCno: 'FL1', shopOrderNo: 'ORD-FL1' }), inboxEntry({ pgCno: 'FL2', shopOrderNo: 'ORD-FL2' }), stored, inboxEntry({ pgCno: 'FL-stored', data: { amount: '1' } })];
    // The service's stores, with the ledger's settings; its projector stays off here so that only the acks' statements pass the proxy.
    const open = async (url: string) => (await openStores(url, { ledger: DEFAULT_LEDGER_SETTINGS, projector: false })).store;
    const trips = await roundTrips((target: Store) => Promise.all(batch.map((entry) => target.record(entry))), [3, 2, 3, 4], open);
    const transaction = (middle: string[]) => [
      [expect.stringMatching(/^BEGIN; SELECT pg_advisory_xact_lock/), 'INSERT INTO inbox', 'SELECT seq, event_id,'],
      [...middle, expect.stringMatching(/^SELECT pg_notify/)],
    ];
    expect(trips).toEqual([
      ...transaction(['INSERT INTO outbox']),
      ...transaction(['INSERT INTO outbox', 'UPDATE inbox SET', 'INSERT INTO conflicts']),
    ]);
  });

  test('marking a published batch delivered, with its history, is one round trip', async () => {
    await store.record(inboxEntry({ pgCno: 'FL-relay' }));
    const [row] = await store.nextPending(10);
    const trips = await roundTrips((target: Store) => target.markDelivered([row!.seq], new Date().toISOString(), 'file'), [4]);
    expect(trips).toEqual([
      [expect.stringMatching(/^BEGIN; SELECT pg_advisory_xact_lock/), 'UPDATE outbox SET', 'INSERT INTO delivery_attempts', 'COMMIT'],
    ]);
  });
});
