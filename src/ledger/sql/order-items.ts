import type { OrderRecord } from '../fold/order-record';
import type { RecordWrite } from '../projection/order-changes';
import { composeRecord, type StoredItems } from '../projection/record-items';
import { jsonRows } from '../../store/procedures/json-rows';
import { changes, ladderRowInserts, sqlBySize, type Dialect, type Param, type Statement } from '../../store/procedures/procedure';

/**
 * An order's items (ledger_order_items, migration 031) as one column of the row that reads its
 * header (`alias`: ledger_orders' alias there): a JSON array of `[list, item_no, item JSON text]`,
 * in the key's order, one index range per order. Null (PostgreSQL) or '[]' (SQLite) when it has none.
 */
export const orderItemsColumn = (dialect: Dialect, alias: string): string => (dialect === 'postgres'
  ? `(SELECT CAST(json_agg(json_build_array(i.list, i.item_no, i.item_json) ORDER BY i.list, i.item_no) AS TEXT) FROM ledger_order_items i WHERE i.order_id = ${alias}.order_id)`
  : `(SELECT json_group_array(json_array(i.list, i.item_no, i.item_json)) FROM (SELECT list, item_no, item_json FROM ledger_order_items
      WHERE order_id = ${alias}.order_id ORDER BY list, item_no) i)`);

/** `record_json` and `record_items`: what `storedOrderRecord` composes an order's record from. */
export const recordColumns = (dialect: Dialect, alias: string): string =>
  `${alias}.record_json AS record_json, ${orderItemsColumn(dialect, alias)} AS record_items`;

export interface StoredRecordRow {
  record_json: string | null;
  record_items: string | null;
}

/** The items column's text, each list's item texts by item_no, in whatever order they came (a gap ends the list: its header then says it is short). */
export function storedItems(text: string | null): StoredItems {
  const lists = new Map<string, string[]>();
  if (text === null) return lists;
  const rows = JSON.parse(text) as Array<[string, number | string, string]>;
  for (const [list, at, item] of rows) {
    const place = Number(at);
    // A place past the rows' count leaves a gap anyway: never a sparse array that long.
    if (!Number.isSafeInteger(place) || place < 0 || place >= rows.length) continue;
    const items = lists.get(list) ?? [];
    items[place] = item;
    lists.set(list, items);
  }
  for (const items of lists.values()) {
    const gap = items.findIndex((item) => item === undefined);
    if (gap >= 0) items.length = gap;
  }
  return lists;
}

/** The order's record from its row's header and items; null when nothing is known of it. */
export function storedOrderRecord(row: StoredRecordRow): OrderRecord | null {
  return row.record_json === null ? null : composeRecord(row.record_json, storedItems(row.record_items));
}

const ORDER_OF = '(SELECT order_id FROM ledger_orders WHERE mall_id = ? AND shop_order_no = ?)';
const CLEAR = `DELETE FROM ledger_order_items WHERE order_id = ${ORDER_OF} AND list = ? AND item_no >= ?`;
const ITEM_COLUMNS = 5;
// An item is written only where its list changed (`itemWrites`); a row already there (one the
// header does not count, left by a rollback to a release before the items table) takes the new text.
const UPSERT_ITEMS = sqlBySize((rows) => `INSERT INTO ledger_order_items (order_id, list, item_no, item_json)
  VALUES ${Array.from({ length: rows }, () => `(${ORDER_OF}, ?, ?, ?)`).join(', ')}
  ON CONFLICT (order_id, list, item_no) DO UPDATE SET item_json = excluded.item_json`);
const PG_CLEARS = jsonRows([['mall_id', 'text'], ['shop_order_no', 'text'], ['list', 'text'], ['from_no', 'bigint']]);
const PG_CLEAR = `DELETE FROM ledger_order_items i USING ${PG_CLEARS.from} AS c
  CROSS JOIN LATERAL (SELECT order_id FROM ledger_orders WHERE mall_id = c.mall_id AND shop_order_no = c.shop_order_no OFFSET 0) o
  WHERE i.order_id = o.order_id AND i.list = c.list AND i.item_no >= c.from_no`;
const PG_ITEMS = jsonRows([['mall_id', 'text'], ['shop_order_no', 'text'], ['list', 'text'], ['item_no', 'bigint'], ['item_json', 'text']]);
const PG_UPSERT_ITEMS = `INSERT INTO ledger_order_items (order_id, list, item_no, item_json)
  SELECT o.order_id, r.list, r.item_no, r.item_json
  FROM ${PG_ITEMS.from} AS r
  CROSS JOIN LATERAL (SELECT order_id FROM ledger_orders WHERE mall_id = r.mall_id AND shop_order_no = r.shop_order_no OFFSET 0) o
  ON CONFLICT (order_id, list, item_no) DO UPDATE SET item_json = excluded.item_json`;

/** The records' item writes, after the orders' rows (a new order's order_id is found by its key): each list cleared from its first changed item, then its new items. */
export function itemStatements(records: readonly RecordWrite[], dialect: Dialect): Statement[] {
  const clears: Param[][] = [];
  const rows: Param[][] = [];
  for (const { order, items } of records) {
    for (const write of items) {
      if (write.clear) clears.push([order.mallId, order.shopOrderNo, write.list, write.from]);
      write.items.forEach((item, i) => rows.push([order.mallId, order.shopOrderNo, write.list, write.from + i, item]));
    }
  }
  if (dialect === 'postgres') {
    return [
      ...(clears.length === 0 ? [] : [changes(PG_CLEAR, PG_CLEARS.rowsParam(clears))]),
      ...(rows.length === 0 ? [] : [changes(PG_UPSERT_ITEMS, PG_ITEMS.rowsParam(rows))]),
    ];
  }
  return [...clears.map((clear) => changes(CLEAR, ...clear)), ...ladderRowInserts(UPSERT_ITEMS, ITEM_COLUMNS, rows)];
}
