import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores } from '../../src/ledger/projector/open-stores';
import { createTestSchema, describePostgres } from '../store/pg-test-database';
import { dayCloseContract, type CloseStores } from './day-close-contract';

const LEDGER = { requireExpectation: false, graceSeconds: 2100 };

async function sqliteStores(): Promise<CloseStores> {
  const dir = mkdtempSync(join(tmpdir(), 'noti-close-'));
  const stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`, { ledger: LEDGER });
  return {
    replicas: [stores, stores],
    cleanup: async () => {
      await stores.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresReplicas(): Promise<CloseStores> {
  const schema = await createTestSchema();
  const a = await openStores(schema.url, { ledger: LEDGER });
  const b = await openStores(schema.url, { ledger: LEDGER });
  return {
    replicas: [a, b],
    cleanup: async () => {
      await a.store.close();
      await b.store.close();
      await schema.drop();
    },
  };
}

describe('closing a day on SQLite', () => dayCloseContract(sqliteStores));
describePostgres('closing a day on two PostgreSQL replicas', () => dayCloseContract(postgresReplicas));
