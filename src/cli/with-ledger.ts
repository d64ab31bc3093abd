import type { Config } from '../config/env';
import { ledgerSettingsOf } from '../config/ledger-env';
import type { LedgerStore } from '../ledger/projector/ledger-store';
import { openStores, type Stores } from '../ledger/projector/open-stores';
import { LedgerCatchingUp } from '../ledger/projector/ledger-catching-up';
import { StoreUnavailable } from '../store/store';
import { CliFailure, EXIT } from '../exit-codes';
import { requireReceiverDatabase } from './require-database';

/**
 * Like withStore, for the payment ledger, under the service's own LEDGER_* settings: a
 * rebuild or a resolution computed with other settings would give other records than the service.
 */
export async function withLedger<T>(config: Config, work: (ledger: LedgerStore, stores: Stores) => Promise<T>, options: { projector?: boolean } = {}): Promise<T> {
  await requireReceiverDatabase(config.DATABASE_URL);
  let stores: Awaited<ReturnType<typeof openStores>>;
  try {
    stores = await openStores(config.DATABASE_URL, { ledger: ledgerSettingsOf(config), projector: options.projector ?? true });
  } catch (error) {
    throw new CliFailure(`cannot open the store: ${(error as Error).message}`, EXIT.storeUnavailable);
  }
  try {
    return await work(stores.ledger, stores);
  } catch (error) {
    if (error instanceof StoreUnavailable) throw new CliFailure(error.message, EXIT.storeUnavailable);
    if (error instanceof LedgerCatchingUp) throw new CliFailure(`${error.message} (is the service running? its projector applies what is stored)`, EXIT.storeUnavailable);
    throw error;
  } finally {
    await stores.store.close();
  }
}

/**
 * Before a rebuild or a backfill: lets the projector apply what is already stored (at most its
 * read wait), so the pages start from the records the inputs stored so far give. A projector that
 * is behind further is no reason to refuse: what it applies later is applied over the pages.
 */
export async function settledFirst(ledger: LedgerStore): Promise<void> {
  await ledger.caughtUp().catch((error: unknown) => {
    if (!(error instanceof LedgerCatchingUp)) throw error;
  });
}
