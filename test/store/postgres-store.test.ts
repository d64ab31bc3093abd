import { Client } from 'pg';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import type { Store } from '../../src/store/store';
import { inboxEntry } from '../helpers/stored-events';
import { createTestSchema, describePostgres, type TestSchema } from './pg-test-database';
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

  test('notifications arriving together cost a few round trips for the whole batch, not a few each', async () => {
    await store.record(inboxEntry({ pgCno: 'RT-warm' }));
    const fresh = Array.from({ length: 50 }, (_, i) => inboxEntry({ pgCno: `RT${i}` }));
    const sent = [...fresh, fresh[0]!, inboxEntry({ pgCno: 'RT1', data: { amount: '13000' } })];
    const queries = jest.spyOn(Client.prototype, 'query');
    const results = await Promise.all(sent.map((entry) => store.record(entry)));
    expect(results.map((result) => result.outcome)).toEqual([...fresh.map(() => 'accepted'), 'duplicate', 'conflict']);
    // All in one transaction: 7 round trips (BEGIN with the outbox-order lock, inbox, outbox, the
    // copies' lookup, their redelivery count, the conflict, NOTIFY with COMMIT). If the first write
    // found the writer idle it commits alone first, in 4. One by one it was 2-3 a notification.
    expect(queries.mock.calls.length).toBeLessThanOrEqual(11);
  });
});
