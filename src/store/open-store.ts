import { redactUrl } from '../observability/redact-url';
import type { OnMigration } from './migrations';
import { openSqliteStore } from './sqlite/sqlite-store';
import type { Store } from './store';

export interface OpenStoreOptions {
  /** The serving process: with SQLite, refuse to start while another process serves the file. */
  exclusive?: boolean;
  /** Told about failures no request is waiting on (a dropped connection, the database file deleted). */
  onBackgroundError?: (error: Error) => void;
  /** Told about each migration just before it is applied. */
  onMigration?: OnMigration;
}

/** `sqlite:PATH` (the embedded default) or `postgres://…` for several replicas; pg loads only when used. */
export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteStore(databaseUrl.slice('sqlite:'.length), options);
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return (await import('./postgres/postgres-store')).openPostgresStore(databaseUrl, options);
  }
  throw new Error(`unsupported DATABASE_URL ${redactUrl(databaseUrl)}`);
}
