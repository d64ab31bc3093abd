import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { createTestSchema, type TestSchema } from '../store/pg-test-database';

/**
 * Two replicas' stores for one suite, each over its own connection pool to one PostgreSQL test
 * schema, as two receiver processes share one database: opened before its tests, closed and the
 * schema dropped after them.
 */
export function replicaStores(): () => { a: Stores; b: Stores } {
  let schema: TestSchema | undefined;
  let a: Stores | undefined;
  let b: Stores | undefined;
  beforeAll(async () => {
    schema = await createTestSchema();
    a = await openStores(schema.url);
    b = await openStores(schema.url);
  });
  afterAll(async () => {
    await a?.store.close();
    await b?.store.close();
    await schema?.drop();
  });
  return () => {
    if (!a || !b) throw new Error('the replicas are opened in beforeAll');
    return { a, b };
  };
}
