import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import { createTestSchema, describePostgres } from './pg-test-database';
import { teamAccessContract } from './team-access-contract';

/** Closes each store once, whether the test already closed it (a restart) or not. */
function closer() {
  const open = new Set<Store>();
  return {
    track(store: Store): Store {
      open.add(store);
      const close = store.close.bind(store);
      return { ...store, close: async () => { open.delete(store); await close(); } };
    },
    async closeAll() {
      for (const store of open) await store.close();
    },
  };
}

describe('operators and sessions on SQLite', () => {
  teamAccessContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-team-'));
    const file = join(dir, 'receiver.db');
    const stores = closer();
    return {
      store: stores.track(openSqliteStore(file)),
      reopen: async () => stores.track(openSqliteStore(file)),
      cleanup: async () => { await stores.closeAll(); rmSync(dir, { recursive: true, force: true }); },
    };
  });
});

describePostgres('operators and sessions on PostgreSQL', () => {
  teamAccessContract(async () => {
    const schema = await createTestSchema();
    const stores = closer();
    return {
      store: stores.track(await openPostgresStore(schema.url)),
      reopen: async () => stores.track(await openPostgresStore(schema.url)),
      cleanup: async () => { await stores.closeAll(); await schema.drop(); },
    };
  });
});
