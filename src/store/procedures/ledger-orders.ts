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
const SELECT_FACTS = sqlBySize((rows) => `SELECT mall_id, shop_order_no, fact_json FROM ledger_facts WHERE ${orderPairs(rows)}`);

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
 * The statements that take the orders' locks and read what they hold: a row per order (made when
 * missing: a new row is locked by its insert), its stored record read `FOR UPDATE` on PostgreSQL,
 * then its facts. Under READ COMMITTED each statement sees what was committed when it started, so
 * the facts are read after the lock: another replica's transaction on the same order has
 * committed by then, and no update is computed from a stale set of facts. SQLite has one writer.
 */
export function lockAndLoadOrders(orders: readonly OrderKey[], dialect: Dialect): Statement[] {
  const lock = dialect === 'postgres' ? ' FOR UPDATE' : '';
  const runs = chunks(orders, 2, LOOKUPS_EACH);
  const params = (run: readonly OrderKey[]): Param[] => run.flatMap((order) => [order.mallId, order.shopOrderNo]);
  return [
    ...runs.map((run) => changes(INSERT_ORDER_ROWS(run.length), ...params(run))),
    ...runs.map((run) => allRows(SELECT_ORDERS(run.length) + lock, ...params(run))),
    ...runs.map((run) => allRows(SELECT_FACTS(run.length), ...params(run))),
  ];
}

export interface LoadedOrder {
  order: OrderKey;
  stored: OrderRecord | null;
  sweepAt: number | null;
  facts: LedgerFact[];
}

/** The answers of `lockAndLoadOrders`' statements (in its order), per order. */
export function loadedOrders(orders: readonly OrderKey[], answers: readonly unknown[]): Map<string, LoadedOrder> {
  const runs = chunks(orders, 2, LOOKUPS_EACH).length;
  const loaded = new Map<string, LoadedOrder>();
  for (const order of orders) loaded.set(orderKeyText(order), { order, stored: null, sweepAt: null, facts: [] });
  for (const rows of answers.slice(runs, 2 * runs) as OrderRow[][]) {
    for (const row of rows) {
      const entry = loaded.get(orderKeyText({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }));
      if (!entry) continue;
      entry.stored = row.record_json === null ? null : (JSON.parse(row.record_json) as OrderRecord);
      entry.sweepAt = row.sweep_at === null ? null : Number(row.sweep_at);
    }
  }
  for (const rows of answers.slice(2 * runs, 3 * runs) as FactRow[][]) {
    for (const row of rows) loaded.get(orderKeyText({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }))?.facts.push(JSON.parse(row.fact_json) as LedgerFact);
  }
  return loaded;
}

/** How many statements `lockAndLoadOrders` yields for these orders. */
export const loadStatementCount = (orders: readonly OrderKey[]): number => 3 * chunks(orders, 2, LOOKUPS_EACH).length;
