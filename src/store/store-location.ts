import { resolve } from 'node:path';
import { databaseOf } from '../config/database-url';
import { redactUrl } from '../observability/redact-url';

/** Which database a store is, as /readyz and the CLI show it. */
export interface StoreIdentity {
  kind: 'sqlite' | 'postgres';
  /** Where it is, safe to show: a SQLite file's absolute path, or the PostgreSQL URL without user, password or query. */
  location: string;
  /** The id written when the database was created; null for a database no receiver of this version has opened yet. */
  id: string | null;
}

/**
 * DATABASE_URL as it may be shown: a relative SQLite path made absolute (the receiver and the CLI
 * may run from different folders), a PostgreSQL URL without what can carry a credential.
 */
export function storeLocation(databaseUrl: string): { kind: StoreIdentity['kind']; location: string } {
  const database = databaseOf(databaseUrl);
  if (database?.kind === 'sqlite') {
    const path = database.location;
    return { kind: 'sqlite', location: `sqlite:${path === ':memory:' ? path : resolve(path)}` };
  }
  return { kind: 'postgres', location: redactUrl(databaseUrl) };
}
