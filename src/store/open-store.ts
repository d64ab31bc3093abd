import { openSqliteStore } from './sqlite/sqlite-store';
import type { Store } from './store';

/** `sqlite:PATH` (the embedded default) or `postgres://…` for several replicas. */
export async function openStore(databaseUrl: string): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteStore(databaseUrl.slice('sqlite:'.length));
  throw new Error(`unsupported DATABASE_URL ${databaseUrl.replace(/\/\/[^@]*@/, '//***@')}`);
}
