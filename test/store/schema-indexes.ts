import type Database from 'better-sqlite3';

const BOTH = [
  'delivery_attempts(outbox_seq, id)',
  'inbox(received_at) partial',
  'inbox(received_at) partial',
  'inbox(shop_order_no)',
  'outbox(inbox_seq) unique',
  'outbox(seq) partial',
  'outbox(seq) partial',
];

/**
 * The indexes of `tables` by what they index, not by name (SQLite and PostgreSQL name the
 * indexes of inline constraints differently, and a returning index may come under any name):
 * `table(col, col)`, then ` unique` and ` partial` as they apply, sorted. Primary keys are left
 * out: SQLite keeps an INTEGER PRIMARY KEY in the table's own b-tree. The inbox's unique key is
 * the one difference: SQLite has no index on the event id (a hash) alone, whose random leaves cost
 * each ack's commit a page (migration 007).
 */
export const EXPECTED_INDEXES = {
  sqlite: [...BOTH, 'inbox(pg_cno, event_id) unique'].sort(),
  postgres: [...BOTH, 'inbox(event_id) unique', 'inbox(pg_cno)'].sort(),
};

export const INDEXED_TABLES = ['inbox', 'outbox', 'delivery_attempts'];

/**
 * The ledger's, the same on both databases (migration 011). Of ledger_orders only the unique key
 * holds the shop's order number, in front so that it also finds an order by its number alone; the
 * status list is by order_id, so a new order appends to it.
 */
export const EXPECTED_LEDGER_INDEXES = [
  'ledger_discrepancies(opened_at, id)',
  'ledger_discrepancies(opened_at, id, kind) partial',
  'ledger_orders(shop_order_no, mall_id) unique',
  'ledger_orders(status, order_id) partial',
  'ledger_orders(sweep_at) partial',
].sort();

export const LEDGER_TABLES = ['ledger_orders', 'ledger_facts', 'ledger_discrepancies'];

const SEARCH_BOTH = [
  'payment_search(amount, at_ms) partial',
  'payment_search(approval_no) partial',
  'payment_search(pg_cno)',
];

/**
 * The console search's rows (migration 029), one index per way search-payments.ts looks them up.
 * The order number's is the dedup key too: SQLite's table is a rowid table, its rows in insertion
 * order, with a unique index; PostgreSQL's heap is in insertion order anyway and keeps it as its
 * primary key (left out of the list, as every primary key).
 */
export const EXPECTED_SEARCH_INDEXES = {
  sqlite: [...SEARCH_BOTH, 'payment_search(shop_order_no, mall_id, event_id) unique'].sort(),
  postgres: [...SEARCH_BOTH].sort(),
};

function describeIndex(table: string, columns: string[], unique: boolean, partial: boolean): string {
  return `${table}(${columns.join(', ')})${unique ? ' unique' : ''}${partial ? ' partial' : ''}`;
}

export function sqliteIndexes(db: Database.Database, tables = INDEXED_TABLES): string[] {
  const described: string[] = [];
  for (const table of tables) {
    const indexes = db.prepare('SELECT name, "unique", origin, partial FROM pragma_index_list(?)').all(table) as Array<{
      name: string; unique: number; origin: string; partial: number;
    }>;
    for (const index of indexes) {
      if (index.origin === 'pk') continue;
      const columns = (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(index.name) as Array<{ name: string }>).map((c) => c.name);
      described.push(describeIndex(table, columns, index.unique === 1, index.partial === 1));
    }
  }
  return described.sort();
}

/** The same for the current schema of a PostgreSQL connection. */
export async function postgresIndexes(
  query: (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>,
  tables = INDEXED_TABLES,
): Promise<string[]> {
  const rows = await query(
    `SELECT t.relname AS "table", ix.indisunique AS "unique", ix.indpred IS NOT NULL AS partial,
       array(SELECT a.attname::text FROM unnest(ix.indkey) WITH ORDINALITY AS k (attnum, n)
             JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n) AS columns
     FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1) AND NOT ix.indisprimary`,
    [tables],
  );
  return rows
    .map((row) => describeIndex(row.table as string, row.columns as string[], row.unique as boolean, row.partial as boolean))
    .sort();
}
