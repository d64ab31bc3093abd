import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Procedure } from '../../src/store/procedures/procedure';
import { migrate as migratePostgres } from '../../src/store/postgres/migrate';
import { createPool, inTransaction, query } from '../../src/store/postgres/pool';
import { runProcedure as runOnPostgres, writeTransaction } from '../../src/store/postgres/run-procedure';
import { migrate as migrateSqlite } from '../../src/store/sqlite/migrate';
import { openConnection } from '../../src/store/sqlite/open-connection';
import { runProcedure as runOnSqlite, StatementCache } from '../../src/store/sqlite/run-procedure';
import { createTestSchema } from './pg-test-database';

/**
 * One empty, migrated database on which a test runs store procedures directly, each in its own
 * transaction the way that database's driver runs writes, below group commit: what one
 * transaction of a given batch does, without depending on how writes happen to be grouped.
 */
export interface ProcedureRunner {
  /** Runs `procedure` in one transaction and commits; a throw rolls it back and rejects. */
  transaction<T>(procedure: Procedure<T>): Promise<T>;
  /** The rows of a read-only statement (portable SQL, no parameters). */
  rows(sql: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export function sqliteRunner(): ProcedureRunner {
  const dir = mkdtempSync(join(tmpdir(), 'noti-procedures-'));
  const db = openConnection(join(dir, 'receiver.db'), { busyTimeoutMs: 1000, setJournalMode: true });
  migrateSqlite(db);
  const statements = new StatementCache(db);
  return {
    async transaction(procedure) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const value = runOnSqlite(statements, procedure, { outboxChanged: false });
        db.exec('COMMIT');
        return value;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    rows: async (sql) => db.prepare(sql).all() as Array<Record<string, unknown>>,
    async close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function postgresRunner(): Promise<ProcedureRunner> {
  const schema = await createTestSchema();
  const pool = createPool(schema.url, {});
  await migratePostgres(pool);
  return {
    async transaction(procedure) {
      const effects = { outboxChanged: false, orderLocked: true };
      return inTransaction(pool, 'test', (client) => runOnPostgres(client, 'test', procedure, effects), writeTransaction(effects));
    },
    rows: (sql) => query(pool, 'test', sql),
    async close() {
      await pool.end();
      await schema.drop();
    },
  };
}
