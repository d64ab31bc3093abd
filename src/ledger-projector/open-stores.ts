import { DEFAULT_LEDGER_SETTINGS } from '../ledger/ledger-settings';
import { createCommandStore, type CommandStore } from './command-store';
import { createStore } from './create-store';
import { createLedgerStore, type LedgerStore } from './ledger-store';
import type { StoreDriver } from './driver';
import type { OpenStoreOptions } from './open-store';
import { redactUrl } from '../observability/redact-url';
import type { Store } from './store';

export interface Stores {
  store: Store;
  commands: CommandStore;
  ledger: LedgerStore;
  kind: StoreDriver['kind'];
}

/**
 * The notification store and the command store over ONE driver: one SQLite writer (group
 * commit, one file lock) or one PostgreSQL pool for both. pg loads only when used.
 */
export async function openStores(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Stores> {
  let driver: StoreDriver;
  if (databaseUrl.startsWith('sqlite:')) {
    driver = (await import('./sqlite/sqlite-store')).openSqliteDriver(databaseUrl.slice('sqlite:'.length), options);
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    driver = await (await import('./postgres/postgres-store')).openPostgresDriver(databaseUrl, options);
  } else {
    throw new Error(`unsupported DATABASE_URL ${redactUrl(databaseUrl)}`);
  }
  const settings = options.ledger ?? DEFAULT_LEDGER_SETTINGS;
  // The ledger's projector runs unless told not to (the CLI's commands that do not read LEDGER_*).
  const ledger = createLedgerStore(driver, settings, { projector: options.projector ?? true, tracing: options.tracing ?? null });
  const store = createStore(driver);
  return {
    store: { ...store, close: async () => {
      await ledger.stop();
      await store.close();
    } },
    commands: createCommandStore(driver, settings),
    ledger,
    kind: driver.kind,
  };
}
