import { existsSync } from 'node:fs';
import { databaseOf } from '../config/database-url';
import { redactUrl } from '../observability/redact-url';
import { CliFailure, EXIT } from './exit-codes';

/**
 * Refuses a DATABASE_URL where the receiver never ran. Opening the store there would create
 * an empty database (a SQLite file, PostgreSQL's tables through the migrations) and answer
 * "nothing found", which hides a wrong URL from the operator and leaves a stray schema behind.
 */
export async function requireReceiverDatabase(databaseUrl: string): Promise<void> {
  const database = databaseOf(databaseUrl);
  if (database?.kind === 'sqlite') {
    const path = database.location;
    if (path !== ':memory:' && !existsSync(path)) {
      throw new CliFailure(`no database at ${path}; point DATABASE_URL or --database-url at the receiver's database`, EXIT.storeUnavailable);
    }
    return;
  }
  if (!(await hasPostgresSchema(databaseUrl))) {
    throw new CliFailure(
      `no receiver database at ${redactUrl(databaseUrl)}: its search_path has no schema_migrations table (the receiver creates one at its first start); ` +
        "point DATABASE_URL or --database-url at the receiver's database",
      EXIT.storeUnavailable,
    );
  }
}

/** Whether the receiver's migrations ever ran where `url`'s search_path points; pg loads only when used. */
async function hasPostgresSchema(url: string): Promise<boolean> {
  const [{ Client }, { connectionConfig }] = await Promise.all([import('pg'), import('../store/postgres/pool')]);
  const client = new Client(connectionConfig(url, {}));
  try {
    await client.connect();
    const { rows } = await client.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
    return rows[0]?.present === true;
  } catch (error) {
    throw new CliFailure(`cannot open the store: postgres connect failed: ${(error as Error).message}`, EXIT.storeUnavailable);
  } finally {
    await client.end().catch(() => undefined);
  }
}
