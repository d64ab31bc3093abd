import { createPool, inTransaction, query } from '../../src/store/postgres/pool';
import { createTestSchema, describePostgres, type TestSchema } from './pg-test-database';

/**
 * Every connection of the store's pools (the acks' writer, the readers, the ledger projector's own)
 * runs without JIT compilation, from its first statement on: the store's schema is in the URL's own
 * options here, which the setting must not displace.
 */
describePostgres("the store's PostgreSQL sessions", () => {
  let schema: TestSchema;
  beforeEach(async () => (schema = await createTestSchema()));
  afterEach(async () => schema.drop());

  test('compile nothing, whichever connection a statement finds, and keep the search path the URL gives', async () => {
    const pool = createPool(schema.url, { maxConnections: 3 });
    try {
      // Three at once: each on a connection of its own, each that connection's first statement.
      const first = await Promise.all([1, 2, 3].map(() => inTransaction(pool, 'test', (client) => query<{ jit: string }>(client, 'test', 'SHOW jit'))));
      expect(first.map((rows) => rows[0]!.jit)).toEqual(['off', 'off', 'off']);
      const [path] = await query<{ search_path: string }>(pool, 'test', 'SHOW search_path');
      expect(path!.search_path).toContain(new URL(schema.url).searchParams.get('options')!.split('=').pop()!);
    } finally {
      await pool.end();
    }
  });
});
