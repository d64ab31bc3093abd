import { DEFAULT_LEDGER_SETTINGS, type LedgerSettings } from '../../config/ledger-settings';
import { createCommandStore, type CommandStore } from '../../store/command-store';
import { createStore } from '../../store/create-store';
import { createLedgerStore, type LedgerStore } from './ledger-store';
import type { StoreDriver } from '../../store/driver';
import { openDriver, type OpenStoreOptions } from '../../store/open-store';
import type { Store } from '../../store/store';
import type { Tracing } from '../../tracing/tracing';
import { createReconciliationStore, type ReconciliationStore } from '../../reconciliation/import/reconciliation-store';

export interface OpenStoresOptions extends OpenStoreOptions {
  /** LEDGER_REQUIRE_EXPECTATION and LEDGER_GRACE_SECONDS; given, `openStores` runs the ledger's projector. */
  ledger?: LedgerSettings;
  /** With `ledger`: run the projector (default true), or its batch size and poll. */
  projector?: boolean | { batch?: number; pollMs?: number };
  /** Tracing on: the projector's batches are spans linked to the notifications they apply. */
  tracing?: Tracing | null;
}

export interface Stores {
  store: Store;
  commands: CommandStore;
  ledger: LedgerStore;
  /** The imports of the gateway's lists and the day's reconciliation. */
  reconciliation: ReconciliationStore;
  kind: StoreDriver['kind'];
  /** SQLite: ports to the one writer for the gateway listener's thread (see StoreDriver.writerPorts). */
  writerPorts: StoreDriver['writerPorts'];
}

/**
 * The notification store and the command store over ONE driver: one SQLite writer (group
 * commit, one file lock) or one PostgreSQL pool for both. pg loads only when used.
 */
export async function openStores(databaseUrl: string, options: OpenStoresOptions = {}): Promise<Stores> {
  const driver = await openDriver(databaseUrl, options);
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
    reconciliation: createReconciliationStore(driver),
    kind: driver.kind,
    writerPorts: driver.writerPorts?.bind(driver),
  };
}
