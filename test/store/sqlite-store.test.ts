import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { storeContract } from './store-contract';

describe('SQLite store', () => {
  storeContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-store-'));
    const store = openSqliteStore(join(dir, 'receiver.db'));
    return {
      store,
      cleanup: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
