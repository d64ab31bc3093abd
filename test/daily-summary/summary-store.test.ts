import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { openStores } from '../../src/ledger/projector/open-stores';
import { createTestSchema, describePostgres } from '../store/pg-test-database';
import { deltaContract } from './delta-contract';
import { methodAndSimulatedContract } from './method-and-simulated-contract';
import { statusHistoryContract } from './status-history-contract';
import { summaryContract, type SummaryStores } from './summary-contract';

// What a store whose orders the summary never counted holds: no totals, no day lists, no order's header counted.
const FORGET = 'DELETE FROM summary_daily; DELETE FROM summary_order_days; UPDATE ledger_orders SET summary_day = NULL;';

async function sqliteStores(): Promise<SummaryStores> {
  const dir = mkdtempSync(join(tmpdir(), 'noti-summary-'));
  const file = join(dir, 'receiver.db');
  const stores = await openStores(`sqlite:${file}`, { ledger: { requireExpectation: false, graceSeconds: 2100 } });
  return {
    stores,
    forgetSummary: async () => {
      const db = new Database(file);
      db.exec(FORGET);
      db.close();
    },
    cleanup: async () => {
      await stores.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresStores(): Promise<SummaryStores> {
  const schema = await createTestSchema();
  const stores = await openStores(schema.url, { ledger: { requireExpectation: false, graceSeconds: 2100 } });
  return {
    stores,
    forgetSummary: async () => {
      const client = new Client({ connectionString: schema.url });
      await client.connect();
      await client.query(FORGET);
      await client.end();
    },
    cleanup: async () => {
      await stores.store.close();
      await schema.drop();
    },
  };
}

describe('the day\'s money on SQLite', () => {
  summaryContract(sqliteStores);
  statusHistoryContract(sqliteStores);
  methodAndSimulatedContract(sqliteStores);
  deltaContract(sqliteStores);
});

describePostgres('the day\'s money on PostgreSQL', () => {
  summaryContract(postgresStores);
  statusHistoryContract(postgresStores);
  methodAndSimulatedContract(postgresStores);
  deltaContract(postgresStores);
});
