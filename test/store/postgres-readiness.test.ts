import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { StoreUnavailable, type Store } from '../../src/store/store';
import { admin, createTestSchema, describePostgres, type TestSchema } from './pg-test-database';

describePostgres('PostgreSQL readiness', () => {
  let schema: TestSchema;
  let store: Store;
  beforeEach(async () => {
    schema = await createTestSchema();
    store = await openPostgresStore(schema.url);
  });
  afterEach(async () => {
    await store.close();
    await schema.drop();
  });

  test('a database that answers queries but refuses writes fails ping, and passes again once writes work', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
    // What a standby after a failover answers to every write; SELECT 1 still works there.
    await admin(schema.url, `CREATE FUNCTION refuse_writes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'cannot execute UPDATE in a read-only transaction' USING ERRCODE = '25006'; END $$`);
    await admin(schema.url, 'CREATE TRIGGER refuse_writes BEFORE INSERT OR UPDATE ON store_probe FOR EACH ROW EXECUTE FUNCTION refuse_writes()');
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailable);
    await admin(schema.url, 'DROP TRIGGER refuse_writes ON store_probe');
    await expect(store.ping()).resolves.toBeUndefined();
  });
});
