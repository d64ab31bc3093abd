import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { storeWholePostgres, storeWholeSqlite } from './whole-record';

/**
 * (d)'s store: as many orders as the export is to write. The bench's clone of a whole order
 * (bench/seed-ledger.ts: inbox, outbox, ledger order and facts) makes a million in minutes; the
 * Orders export reads the ledger's order rows alone, so the rows beyond the cloned orders are
 * copies of the template order's row only, each under its own number, made by the database itself
 * in a few seconds. They come after (c): a rebuild would find them without facts. The receiver must
 * be stopped.
 */
const CHUNK = 100_000;
const TEMPLATE = 'SELECT * FROM ledger_orders WHERE status IS NOT NULL ORDER BY order_id LIMIT 1';

/** The copy's expression of each column: its number `<template>-X<n>` wherever the template's appears. */
function copyColumns(columns: string[], shopOrderNo: string, n: string, concat: (...parts: string[]) => string): string[] {
  const quoted = `'${shopOrderNo.replace(/'/g, "''")}'`;
  return columns.map((name) => {
    if (name === 'shop_order_no') return concat('t.shop_order_no', `'-X'`, n);
    if (name === 'record_json') return `replace(t.record_json, ${quoted}, ${concat(quoted, `'-X'`, n)})`;
    return `t.${name}`;
  });
}

export interface TopUp {
  added: number;
  orders: number;
  seconds: number;
}

export async function topUpOrders(databaseUrl: string, orders: number): Promise<TopUp> {
  const started = performance.now();
  const added = databaseUrl.startsWith('sqlite:') ? topUpSqlite(databaseUrl.slice('sqlite:'.length), orders) : await topUpPostgres(databaseUrl, orders);
  return { added, orders, seconds: (performance.now() - started) / 1000 };
}

function topUpSqlite(file: string, orders: number): number {
  const db = new Database(file);
  try {
    db.pragma('synchronous = OFF');
    const template = db.prepare(TEMPLATE).get() as { order_id: number; shop_order_no: string } | undefined;
    if (!template) throw new Error('no template order to copy');
    // The copies are of its row alone: its record whole in the row.
    storeWholeSqlite(db, template.order_id);
    const have = (db.prepare('SELECT COUNT(*) AS n FROM ledger_orders').get() as { n: number }).n;
    const columns = (db.prepare(`SELECT name FROM pragma_table_info('ledger_orders')`).all() as Array<{ name: string }>).map((c) => c.name).filter((name) => name !== 'order_id');
    const insert = db.prepare(`WITH RECURSIVE n(i) AS (SELECT CAST(@from AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < @to)
      INSERT INTO ledger_orders (${columns.join(', ')})
      SELECT ${copyColumns(columns, template.shop_order_no, 'n.i', (...parts) => parts.join(' || ')).join(', ')}
      FROM n CROSS JOIN (SELECT * FROM ledger_orders WHERE order_id = @template) t`);
    for (let from = 1; from <= orders - have; from += CHUNK) {
      db.transaction(() => insert.run({ from, to: Math.min(orders - have, from + CHUNK - 1), template: template.order_id }))();
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    return Math.max(0, orders - have);
  } finally {
    db.close();
  }
}

async function topUpPostgres(url: string, orders: number): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const template = (await client.query<{ order_id: string; shop_order_no: string }>(TEMPLATE)).rows[0];
    if (!template) throw new Error('no template order to copy');
    // The copies are of its row alone: its record whole in the row.
    await storeWholePostgres(client, template.order_id);
    const have = Number((await client.query<{ n: string }>('SELECT COUNT(*) AS n FROM ledger_orders')).rows[0]!.n);
    const columns = (await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'ledger_orders' ORDER BY ordinal_position`,
    )).rows.map((r) => r.column_name).filter((name) => name !== 'order_id');
    const sql = `INSERT INTO ledger_orders (${columns.join(', ')})
      SELECT ${copyColumns(columns, template.shop_order_no, 'g::text', (...parts) => parts.join(' || ')).join(', ')}
      FROM generate_series($1::int, $2::int) g CROSS JOIN (SELECT * FROM ledger_orders WHERE order_id = $3) t`;
    for (let from = 1; from <= orders - have; from += CHUNK) {
      await client.query(sql, [from, Math.min(orders - have, from + CHUNK - 1), template.order_id]);
    }
    await client.query('VACUUM ANALYZE ledger_orders');
    return Math.max(0, orders - have);
  } finally {
    await client.end();
  }
}
