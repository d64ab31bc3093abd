import type { LedgerSettings } from '../ledger/ledger-settings';
import { redactUrl } from '../observability/redact-url';
import { createStore } from './create-store';
import type { OnMigration } from './migrations';
import { openSqliteDriver } from './sqlite/sqlite-store';
import type { Store } from './store';
import type { Tracing } from '../tracing/tracing';

export interface OpenStoreOptions {
  /** The serving process: with SQLite, refuse to start while another process serves the file. */
  exclusive?: boolean;
  /** Told about failures no request is waiting on (a dropped connection, the database file deleted). */
  onBackgroundError?: (error: Error) => void;
  /** Told about each migration just before it is applied. */
  onMigration?: OnMigration;
  /** LEDGER_REQUIRE_EXPECTATION and LEDGER_GRACE_SECONDS; given, `openStores` runs the ledger's projector. */
  ledger?: LedgerSettings;
  /** With `ledger`: run the projector (default true), or its batch size and poll. */
  projector?: boolean | { batch?: number; pollMs?: number };
  /** Tracing on: the projector's batches are spans linked to the notifications they apply. */
  tracing?: Tracing | null;
}

/** `sqlite:PATH` (the embedded default) or `postgres://…` for several replicas; pg loads only when used. */
export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return createStore(openSqliteDriver(databaseUrl.slice('sqlite:'.length), options));
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return createStore(await (await import('./postgres/postgres-store')).openPostgresDriver(databaseUrl, options));
  }
  throw new Error(`unsupported DATABASE_URL ${redactUrl(databaseUrl)}`);
}
