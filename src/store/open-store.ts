import { openSqliteStore } from './sqlite/sqlite-store';
import { redactUrl } from '../observability/redact-url';
import type { Store } from './store';

/** `sqlite:PATH` (the embedded default) or `postgres://…` for several replicas; pg loads only when used. */
export async function openStore(
  databaseUrl: string,
  options: { onBackgroundError?: (error: Error) => void } = {},
): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteStore(databaseUrl.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return (await import('./postgres/postgres-store')).openPostgresStore(databaseUrl, options);
  throw new Error(`unsupported DATABASE_URL ${redactUrl(databaseUrl)}`);
}
