import type { LedgerFact, OrderKey } from '../../ledger/ledger-facts';
import type { OrderRecord } from '../../ledger/order-record';
import { allRows, changes, chunks, sqlBySize, valueRows, type Dialect, type Param, type Statement } from './procedure';

/** The order's key as one string, for maps (JSON: no separator can make two keys one). */
export const orderKeyText = (order: OrderKey): string => JSON.stringify([order.mallId, order.shopOrderNo]);

/**
 * The orders once each, sorted: every transaction locks orders in this order (and the database's
 * `ORDER BY` below locks the existing rows in its own), so two replicas never wait on each other
 * in a cycle.
 */
export function distinctOrders(orders: Iterable<OrderKey>): OrderKey[] {
  const byKey = new Map<string, OrderKey>();
  for (const order of orders) byKey.set(orderKeyText(order), { mallId: order.mallId, shopOrderNo: order.shopOrderNo });
  return [...byKey.values()].sort((a, b) => (a.mallId !== b.mallId ? (a.mallId < b.mallId ? -1 : 1) : a.shopOrderNo < b.shopOrderNo ? -1 : a.shopOrderNo > b.shopOrderNo ? 1 : 0));
}

// OR'd pairs rather than a row-value IN: both planners search the primary key for each pair.
const LOOKUPS_EACH = 256;
const orderPairs = (rows: number) => Array.from({ length: rows }, () => '(mall_id = ? AND shop_order_no = ?)').join(' OR ');
const INSERT_ORDER_ROWS = sqlBySize((rows) =>
  `INSERT INTO ledger_orders (mall_id, shop_order_no) VALUES ${valueRows(rows, 2)} ON CONFLICT DO NOTHING`);
const SELECT_ORDERS = sqlBySize((rows) =>
  `SELECT mall_id, shop_order_no, record_json, sweep_at FROM ledger_orders WHERE ${orderPairs(rows)} ORDER BY mall_id, shop_order_no`);
// Through the order's row: the facts are keyed by its order_id (migration 010), found by the key's index.
const SELECT_FACTS = sqlBySize((rows) => `SELECT o.mall_id, o.shop_order_no, f.fact_json FROM ledger_orders o
  JOIN ledger_facts f ON f.order_id = o.order_id WHERE ${orderPairs(rows)}`);

export interface OrderRow {
  mall_id: string;
  shop_order_no: string;
  record_json: string | null;
  sweep_at: number | string | null;
}

export interface FactRow {
  mall_id: string;
  shop_order_no: string;
  fact_json: string;
}

/**
 * The statements that take the orders' locks and read what they hold. On PostgreSQL: a row per
 * order (made when missing: a new row is locked by its insert, and a concurrent insert of it waits
 * for this transaction), its stored record read `FOR UPDATE`, then its facts. Under READ COMMITTED
 * each statement sees what was committed when it started, so the facts are read after the lock:
 * another replica's transaction on the same order has committed by then, and no update is
 * computed from a stale set of facts. SQLite has one writer: the reads alone, and a new order's
 * row is written once, with its record.
 */
export function lockAndLoadOrders(orders: readonly OrderKey[], dialect: Dialect): Statement[] {
  const runs = chunks(orders, 2, LOOKUPS_EACH);
  const params = (run: readonly OrderKey[]): Param[] => run.flatMap((order) => [order.mallId, order.shopOrderNo]);
  const locking = dialect === 'postgres';
  return [
    ...(locking ? runs.map((run) => changes(INSERT_ORDER_ROWS(run.length), ...params(run))) : []),
    ...runs.map((run) => allRows(SELECT_ORDERS(run.length) + (locking ? ' FOR UPDATE' : ''), ...params(run))),
    ...runs.map((run) => allRows(SELECT_FACTS(run.length), ...params(run))),
  ];
}

export interface LoadedOrder {
  order: OrderKey;
  /** The order has a row (on SQLite a new order's row is written with its first record). */
  exists: boolean;
  /** The stored record as stored (JSON): compared as text, parsed only when the record changed. */
  storedJson: string | null;
  sweepAt: number | null;
  facts: LedgerFact[];
}

/** The answers of `lockAndLoadOrders`' statements (in its order), per order. */
export function loadedOrders(orders: readonly OrderKey[], answers: readonly unknown[]): Map<string, LoadedOrder> {
  const runs = chunks(orders, 2, LOOKUPS_EACH).length;
  // PostgreSQL's answers begin with the row inserts' counts.
  if (answers.length === 3 * runs) answers = answers.slice(runs);
  const loaded = new Map<string, LoadedOrder>();
  for (const order of orders) loaded.set(orderKeyText(order), { order, exists: false, storedJson: null, sweepAt: null, facts: [] });
  for (const rows of answers.slice(0, runs) as OrderRow[][]) {
    for (const row of rows) {
      const entry = loaded.get(orderKeyText({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }));
      if (!entry) continue;
      entry.exists = true;
      entry.storedJson = row.record_json;
      entry.sweepAt = row.sweep_at === null ? null : Number(row.sweep_at);
    }
  }
  for (const rows of answers.slice(runs, 2 * runs) as FactRow[][]) {
    for (const row of rows) loaded.get(orderKeyText({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }))?.facts.push(JSON.parse(row.fact_json) as LedgerFact);
  }
  return loaded;
}

export const storedRecord = (entry: LoadedOrder): OrderRecord | null => (entry.storedJson === null ? null : (JSON.parse(entry.storedJson) as OrderRecord));

/** How many statements `lockAndLoadOrders` yields for these orders. */
export const loadStatementCount = (orders: readonly OrderKey[], dialect: Dialect): number => (dialect === 'postgres' ? 3 : 2) * chunks(orders, 2, LOOKUPS_EACH).length;
