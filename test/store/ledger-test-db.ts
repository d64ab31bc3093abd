import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { rawQuery } from '../helpers/raw-sql';
import { createTestSchema } from './pg-test-database';

type ProjectorOption = NonNullable<Parameters<typeof openStores>[1]>['projector'];

/** A fresh database for the ledger's contract suites, and by-hand SQL beside the stores that open on it. */
export interface LedgerTestDb {
  /** `sqlite:<file>` or the test schema's URL. */
  url: string;
  /** The stores with the default ledger settings; the projector polls every 50 ms unless told otherwise. */
  open(projector?: ProjectorOption): Promise<Stores>;
  /** `?` placeholders on either database; answers the rows a query reads. */
  sql(text: string, ...params: Array<string | number>): Promise<Array<Record<string, unknown>>>;
  /** Removes the database. */
  cleanup(): Promise<void>;
}

function ledgerTestDb(url: string, cleanup: () => Promise<void>): LedgerTestDb {
  return {
    url,
    open: (projector = { pollMs: 50 }) => openStores(url, { ledger: DEFAULT_LEDGER_SETTINGS, projector }),
    sql: (text, ...params) => rawQuery(url, text, ...params),
    cleanup,
  };
}

/** A SQLite file in a temporary folder named after `prefix`; `file` for statements rawQuery cannot run (several at once). */
export function sqliteLedgerDb(prefix: string): LedgerTestDb & { file: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = join(dir, 'receiver.db');
  return { ...ledgerTestDb(`sqlite:${file}`, async () => rmSync(dir, { recursive: true, force: true })), file };
}

/** A PostgreSQL schema of its own. */
export async function postgresLedgerDb(): Promise<LedgerTestDb> {
  const schema = await createTestSchema();
  return ledgerTestDb(schema.url, () => schema.drop());
}

/** For each test: a fresh database from `openDb` and the stores open on it; after it, both closed and removed. */
export function freshStoresEach<T extends LedgerTestDb>(openDb: () => Promise<T>): { readonly db: T; readonly stores: Stores } {
  let opened: { db: T; stores: Stores } | undefined;
  beforeEach(async () => {
    const db = await openDb();
    opened = { db, stores: await db.open() };
  });
  afterEach(async () => {
    await opened?.stores.store.close();
    await opened?.db.cleanup();
    opened = undefined;
  });
  const current = () => {
    if (!opened) throw new Error('the database is opened in beforeEach');
    return opened;
  };
  return {
    get db() {
      return current().db;
    },
    get stores() {
      return current().stores;
    },
  };
}
