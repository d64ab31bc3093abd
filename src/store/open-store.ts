import { databaseOf, type DatabaseKind } from '../config/database-url';
import { redactUrl } from '../observability/redact-url';
import { createStore } from './create-store';
import type { StoreDriver } from './driver';
import type { OnMigration } from './migrations';
import type { Store } from './store';

export interface OpenStoreOptions {
  /** The serving process: with SQLite, refuse to start while another process serves the file. */
  exclusive?: boolean;
  /** Told about failures no request is waiting on (a dropped connection, the database file deleted). */
  onBackgroundError?: (error: Error) => void;
  /** Told about each migration just before it is applied. */
  onMigration?: OnMigration;
}

type DriverOpener = (location: string, options: OpenStoreOptions) => Promise<StoreDriver>;

/** One driver per database the DATABASE_URL can name; pg loads only when used. */
const OPENERS: Record<DatabaseKind, DriverOpener> = {
  sqlite: async (path, options) => (await import('./sqlite/sqlite-store')).openSqliteDriver(path, options),
  postgres: async (url, options) => (await import('./postgres/postgres-store')).openPostgresDriver(url, options),
};

/** `sqlite:PATH` (the embedded default) or `postgres://…` for several replicas. */
export async function openDriver(databaseUrl: string, options: OpenStoreOptions = {}): Promise<StoreDriver> {
  const database = databaseOf(databaseUrl);
  if (!database) throw new Error(`unsupported DATABASE_URL ${redactUrl(databaseUrl)}`);
  return OPENERS[database.kind](database.location, options);
}

/** The notification store alone, for a process that needs neither the commands nor the ledger. */
export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  return createStore(await openDriver(databaseUrl, options));
}
