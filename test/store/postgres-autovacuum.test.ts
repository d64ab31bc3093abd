import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { admin, createTestSchema, describePostgres, type TestSchema } from './pg-test-database';

describePostgres('PostgreSQL autovacuum of the outbox', () => {
  let schema: TestSchema;
  beforeEach(async () => {
    schema = await createTestSchema();
    await (await openPostgresStore(schema.url)).close();
  });
  afterEach(() => schema.drop());

  test('the outbox is vacuumed after a fixed number of dead rows, not after a share of the table', async () => {
    // Every delivered event leaves a dead row version the relay's scan steps over until a vacuum;
    // with the default share (20 %) their number grows with the store.
    const rows = await admin(schema.url, `SELECT reloptions FROM pg_class WHERE oid = to_regclass('outbox')`);
    expect(rows).toEqual([{ reloptions: expect.arrayContaining(['autovacuum_vacuum_scale_factor=0', 'autovacuum_vacuum_threshold=1000']) }]);
  });
});
