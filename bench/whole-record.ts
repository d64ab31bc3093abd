import type Database from 'better-sqlite3';
import type { Client } from 'pg';
import { recordColumns, storedOrderRecord, type StoredRecordRow } from '../src/ledger/sql/order-items';

/**
 * A template order's record stored whole in its row, as releases before the items table (migration
 * 031) stored every record: a copy of the row alone is then a whole order, read as stored and
 * written as header and items when next projected. Its items stay, unread beside a whole record.
 */
export function storeWholeSqlite(db: Database.Database, orderId: number | bigint): void {
  const row = db.prepare(`SELECT ${recordColumns('sqlite', 'o')} FROM ledger_orders o WHERE o.order_id = ?`).get(orderId) as StoredRecordRow | undefined;
  if (row?.record_json) db.prepare('UPDATE ledger_orders SET record_json = ? WHERE order_id = ?').run(JSON.stringify(storedOrderRecord(row)), orderId);
}

export async function storeWholePostgres(client: Client, orderId: number | string): Promise<void> {
  const row = (await client.query<StoredRecordRow>(`SELECT ${recordColumns('postgres', 'o')} FROM ledger_orders o WHERE o.order_id = $1`, [orderId])).rows[0];
  if (row?.record_json) await client.query('UPDATE ledger_orders SET record_json = $1 WHERE order_id = $2', [JSON.stringify(storedOrderRecord(row)), orderId]);
}
