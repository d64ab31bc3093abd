import type { Pool, PoolClient, QueryConfig } from 'pg';
import { readMigrations, type Migration, type OnMigration } from '../migrations';
import { LOCK_KIND, lockArgs } from './advisory-locks';
import { inTransaction } from './pool';

/**
 * A migration may build an index over years of rows (006 does), and replicas starting meanwhile
 * wait for it on the lock. The pool's statement timeout is meant for acks (seconds): under it
 * such a migration would fail at every start and keep the receiver down for good.
 */
const MIGRATION_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * Applies `migrations/postgres` not yet recorded in schema_migrations. The advisory lock is taken
 * before anything else, even CREATE TABLE IF NOT EXISTS (which itself races on the catalog), so
 * replicas starting together apply each migration exactly once; the others wait and find it done.
 * DDL is transactional in PostgreSQL: a failing migration leaves nothing half-applied.
 */
export async function migrate(pool: Pool, options: { migrations?: Migration[]; onMigration?: OnMigration } = {}): Promise<void> {
  await inTransaction(pool, 'migration', async (client) => {
    await client.query(`SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`);
    await slowQuery(client, `SELECT pg_advisory_xact_lock(${lockArgs(LOCK_KIND.migrate)})`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const applied = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version),
    );
    for (const migration of options.migrations ?? readMigrations('postgres')) {
      if (applied.has(migration.version)) continue;
      options.onMigration?.(migration);
      await slowQuery(client, migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
  });
}

/** The client-side time-out of the pool's connections, raised for this one query. */
async function slowQuery(client: PoolClient, sql: string): Promise<void> {
  // query_timeout per query is supported by pg but missing from its typings.
  const config: QueryConfig & { query_timeout: number } = { text: sql, query_timeout: MIGRATION_TIMEOUT_MS };
  await client.query(config);
}
