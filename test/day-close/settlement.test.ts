import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores } from '../../src/ledger/projector/open-stores';
import { createTestSchema, describePostgres } from '../store/pg-test-database';
import { settlementContract } from './settlement-contract';

const LEDGER = { requireExpectation: false, graceSeconds: 2100 };

describe('the settlement statement in the day\'s money on SQLite', () => settlementContract(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'noti-settle-'));
  const stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`, { ledger: LEDGER });
  return { stores, cleanup: async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  } };
}));

describePostgres('the settlement statement in the day\'s money on PostgreSQL', () => settlementContract(async () => {
  const schema = await createTestSchema();
  const stores = await openStores(schema.url, { ledger: LEDGER });
  return { stores, cleanup: async () => {
    await stores.store.close();
    await schema.drop();
  } };
}));
