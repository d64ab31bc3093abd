import { existsSync } from 'node:fs';
import type { Config } from '../config/env';
import type { CommandStore } from '../store/command-store';
import { openStores } from '../store/open-stores';
import { StoreUnavailable } from '../store/store';
import { CliFailure, EXIT } from './exit-codes';

/** Like withStore, for the gateway commands (SPEC 5) kept in the same database. */
export async function withCommands<T>(config: Config, work: (commands: CommandStore) => Promise<T>): Promise<T> {
  const sqlitePath = config.DATABASE_URL.startsWith('sqlite:') ? config.DATABASE_URL.slice('sqlite:'.length) : null;
  // An empty new database would answer "nothing found" and hide a wrong DATABASE_URL.
  if (sqlitePath !== null && sqlitePath !== ':memory:' && !existsSync(sqlitePath)) {
    throw new CliFailure(`no database at ${sqlitePath}; point DATABASE_URL or --database-url at the receiver's database`, EXIT.storeUnavailable);
  }
  let stores: Awaited<ReturnType<typeof openStores>>;
  try {
    stores = await openStores(config.DATABASE_URL);
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
