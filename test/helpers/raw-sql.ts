import Database from 'better-sqlite3';
import { admin } from '../store/pg-test-database';

/**
 * SQL run by hand on the service's own database, as an operator's hand or a fault would leave it
 * (a corrupted input, a row changed under the service): `?` placeholders on either database.
 */
export async function rawSql(url: string, text: string, ...params: Array<string | number>): Promise<void> {
  await rawQuery(url, text, ...params);
}

/** As rawSql, answering the rows a query reads (none for a statement that only writes). */
export async function rawQuery(url: string, text: string, ...params: Array<string | number>): Promise<Array<Record<string, unknown>>> {
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length));
    try {
      const statement = db.prepare(text);
      return statement.reader ? (statement.all(...params) as Array<Record<string, unknown>>) : (statement.run(...params), []);
    } finally {
      db.close();
    }
  }
  let n = 0;
  return admin(url, text.replace(/\?/g, () => `$${++n}`), params);
}
