import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { deliveryAttemptsContract } from './delivery-attempts-contract';
import { admin, createTestSchema, describePostgres } from './pg-test-database';

describe('delivery attempts on SQLite', () => {
  deliveryAttemptsContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-attempts-'));
    const file = join(dir, 'receiver.db');
    const store = openSqliteStore(file);
    return {
      store,
      sql: async (text) => {
        const db = new Database(file);
        try {
          db.exec(text);
        } finally {
          db.close();
        }
      },
      cleanup: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); },
    };
  });
});

describePostgres('delivery attempts on PostgreSQL', () => {
  deliveryAttemptsContract(async () => {
    const schema = await createTestSchema();
    const store = await openPostgresStore(schema.url);
    return {
      store,
      sql: async (text) => void (await admin(schema.url, text)),
      cleanup: async () => { await store.close(); await schema.drop(); },
    };
  });
});
