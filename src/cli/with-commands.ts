import type { Config } from '../config/env';
import type { CommandStore } from '../store/command-store';
import { openStores } from '../ledger/projector/open-stores';
import { StoreUnavailable } from '../store/store';
import { CliFailure, EXIT } from '../exit-codes';
import { requireReceiverDatabase } from './require-database';

/** Like withStore, for the gateway commands kept in the same database. */
export async function withCommands<T>(config: Config, work: (commands: CommandStore) => Promise<T>): Promise<T> {
  await requireReceiverDatabase(config.DATABASE_URL);
  let stores: Awaited<ReturnType<typeof openStores>>;
  try {
    // No projector here: it computes under the service's LEDGER_* settings, which withLedger reads.
    stores = await openStores(config.DATABASE_URL, { projector: false });
  } catch (error) {
    throw new CliFailure(`cannot open the store: ${(error as Error).message}`, EXIT.storeUnavailable);
  }
  try {
    return await work(stores.commands);
  } catch (error) {
    if (error instanceof StoreUnavailable) throw new CliFailure(error.message, EXIT.storeUnavailable);
    throw error;
  } finally {
    await stores.store.close();
  }
}
