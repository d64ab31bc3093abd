import { existsSync } from 'node:fs';
import { databaseOf } from '../config/database-url';
import { redactUrl } from '../observability/redact-url';
import { storeLocation, type StoreIdentity } from '../store/store-location';
import { CliFailure, EXIT } from '../exit-codes';

/**
 * Refuses a DATABASE_URL where the receiver never ran. Opening the store there would create
 * an empty database (a SQLite file, PostgreSQL's tables through the migrations) and answer
 * "nothing found", which hides a wrong URL from the operator and leaves a stray schema behind.
 * Answers which database it is, so the CLI can name it and compare it with the receiver's.
 */
export async function requireReceiverDatabase(databaseUrl: string): Promise<StoreIdentity> {
  const { kind, location } = storeLocation(databaseUrl);
  const database = databaseOf(databaseUrl);
  if (database?.kind === 'sqlite') {
    const path = database.location;
    if (path !== ':memory:' && !existsSync(path)) {
      throw new CliFailure(`no database at ${path}; point DATABASE_URL or --database-url at the receiver's database`, EXIT.storeUnavailable);
    }
    return { kind, location, id: path === ':memory:' ? null : await sqliteStoreId(path) };
  }
  const id = await postgresStoreId(databaseUrl);
  if (id === undefined) {
    throw new CliFailure(
      `no receiver database at ${redactUrl(databaseUrl)}: its search_path has no schema_migrations table (the receiver creates one at its first start); ` +
        "point DATABASE_URL or --database-url at the receiver's database",
      EXIT.storeUnavailable,
    );
  }
  return { kind, location, id };
}

/** The store's id without opening the store (no writer, no migrations); null before migration 018 ran there. */
async function sqliteStoreId(path: string): Promise<string | null> {
  const { default: Database } = await import('better-sqlite3');
  let db: InstanceType<typeof Database> | undefined;
  try {
    db = new Database(path, { fileMustExist: true });
    db.pragma('query_only = ON');
    db.pragma('busy_timeout = 2000');
    const row = db.prepare("SELECT store_id AS id FROM store_identity WHERE id = 1").get() as { id: string } | undefined;
    return row?.id ?? null;
  } catch {
    // No such table yet (an older database), or a file that is no database: opening the store says which.
    return null;
  } finally {
    db?.close();
  }
}

/**
 * Undefined when the receiver's migrations never ran where `url`'s search_path points; else the
 * store's id (null before migration 018). pg loads only when used.
 */
async function postgresStoreId(url: string): Promise<string | null | undefined> {
  const [{ Client }, { connectionConfig }] = await Promise.all([import('pg'), import('../store/postgres/pool')]);
  const client = new Client(connectionConfig(url, {}));
  try {
    await client.connect();
    const { rows } = await client.query<{ migrated: boolean; identified: boolean }>(
      "SELECT to_regclass('schema_migrations') IS NOT NULL AS migrated, to_regclass('store_identity') IS NOT NULL AS identified",
    );
    if (rows[0]?.migrated !== true) return undefined;
    if (rows[0]?.identified !== true) return null;
    const identity = await client.query<{ id: string }>('SELECT store_id AS id FROM store_identity WHERE id = 1');
    return identity.rows[0]?.id ?? null;
  } catch (error) {
    throw new CliFailure(`cannot open the store: postgres connect failed: ${(error as Error).message}`, EXIT.storeUnavailable);
  } finally {
    await client.end().catch(() => undefined);
  }
}
