import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { operatorQueriesContract } from './operator-queries-contract';
import { createTestSchema, describePostgres } from './pg-test-database';

describe('operator queries on SQLite', () => {
  operatorQueriesContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-operator-'));
    const store = openSqliteStore(join(dir, 'receiver.db'));
    return { store, cleanup: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); } };
  });
});

describePostgres('operator queries on PostgreSQL', () => {
  operatorQueriesContract(async () => {
    const schema = await createTestSchema();
    const store = await openPostgresStore(schema.url);
    return { store, cleanup: async () => { await store.close(); await schema.drop(); } };
  });
});
