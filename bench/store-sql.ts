import Database from 'better-sqlite3';
import { Client } from 'pg';

/**
 * The benches' own statements on a receiver's store, SQLite file or PostgreSQL URL alike, written
 * with `?` placeholders. A write here is a bench's setup (the receiver stopped, or one small row
 * changed); a store's own rules stay with the receiver.
 */
async function onStore<T>(databaseUrl: string, sqlite: (db: Database.Database) => T, postgres: (client: Client) => Promise<T>): Promise<T> {
  if (databaseUrl.startsWith('sqlite:')) {
    // A receiver may be writing: wait for its write lock as its own connections do.
    const db = new Database(databaseUrl.slice('sqlite:'.length), { timeout: 10_000 });
    try {
      return sqlite(db);
    } finally {
      db.close();
    }
  }
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await postgres(client);
  } finally {
    await client.end();
  }
}

const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${(n += 1)}`);
};

/** One parameterised read: the first row, or undefined. */
export function readOne<T>(databaseUrl: string, sql: string, params: unknown[]): Promise<T | undefined> {
  return onStore(databaseUrl,
    (db) => db.prepare(sql).get(...params) as T | undefined,
    async (client) => (await client.query(numbered(sql), params)).rows[0] as T | undefined);
}

/** One parameterised read: every row. */
export function readAll<T>(databaseUrl: string, sql: string, params: unknown[]): Promise<T[]> {
  return onStore(databaseUrl,
    (db) => db.prepare(sql).all(...params) as T[],
    async (client) => (await client.query(numbered(sql), params)).rows as T[]);
}

/** One parameterised write; the rows it changed. */
export function writeSql(databaseUrl: string, sql: string, params: unknown[] = []): Promise<number> {
  return onStore(databaseUrl,
    (db) => db.prepare(sql).run(...params).changes,
    async (client) => (await client.query(numbered(sql), params)).rowCount ?? 0);
}
