import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores } from '../../src/ledger/projector/open-stores';
import { ledgerContract } from './ledger-contract';
import { createTestSchema, describePostgres } from './pg-test-database';

describe('the ledger on SQLite', () => {
  ledgerContract(async (ledger) => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-ledger-'));
    const stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`, { ledger });
    return { stores, cleanup: async () => { await stores.store.close(); rmSync(dir, { recursive: true, force: true }); } };
  });
});

describePostgres('the ledger on PostgreSQL', () => {
  ledgerContract(async (ledger) => {
    const schema = await createTestSchema();
    const stores = await openStores(schema.url, { ledger });
    return { stores, cleanup: async () => { await stores.store.close(); await schema.drop(); } };
  });
});
