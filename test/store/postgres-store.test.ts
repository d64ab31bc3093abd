import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { createTestSchema, describePostgres } from './pg-test-database';
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
