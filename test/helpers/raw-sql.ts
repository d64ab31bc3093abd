import Database from 'better-sqlite3';
import { admin } from '../store/pg-test-database';

/**
 * SQL run by hand on the service's own database, as an operator's hand or a fault would leave it
 * (a corrupted input, a row changed under the service): `?` placeholders on either database.
 */
export async function rawSql(url: string, text: string, ...params: Array<string | number>): Promise<void> {
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length));
    try {
      db.prepare(text).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  let n = 0;
  await admin(url, text.replace(/\?/g, () => `$${++n}`), params);
}
