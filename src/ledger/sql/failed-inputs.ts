import type { OrderKey } from '../fold/ledger-facts';
import { PG_ORDER_KEYS, orderKeysParam } from './order-keys';
import { allRows, changes, ladderChunks, sqlBySize, type Dialect, type Param, type Statement } from '../../store/procedures/procedure';

/**
 * The ledger's inputs it could not apply (migration 016): kept with their order, so the order stays
 * `ledger_error` through its later inputs, and retried each time the order is computed (every order
 * by `ledger rebuild`): once the input reads as a fact, it is applied and its row goes. Two kinds
 * share the table's one key column: an input of ledger_inputs by its seq, and a notification of the
 * inbox (a stored event that names its order but reads as no event) by its inbox seq negated —
 * both sequences start at 1, so the sign tells them apart (`FailedInput`, src/ledger/projection/).
 */
export interface FailedInputRow {
  input_seq: number | string;
  mall_id: string;
  shop_order_no: string;
  error: string;
  fact_json: string | null;
}

const COLUMNS = 'f.input_seq, f.mall_id, f.shop_order_no, f.error, COALESCE(i.fact_json, n.event_json) AS fact_json';
const SOURCES = 'LEFT JOIN ledger_inputs i ON i.seq = f.input_seq LEFT JOIN inbox n ON n.seq = -f.input_seq';
// Each key searched in the order's index (LATERAL, so no plan merges or hashes the whole table for a few keys).
const OF_ORDERS_PG = `SELECT ${COLUMNS} FROM ${PG_ORDER_KEYS.from} AS k
  CROSS JOIN LATERAL (SELECT * FROM ledger_failed_inputs WHERE mall_id = k.mall_id AND shop_order_no = k.shop_order_no OFFSET 0) f
  ${SOURCES}`;
const ofOrdersSqlite = sqlBySize((rows) => `SELECT ${COLUMNS} FROM ledger_failed_inputs f ${SOURCES}
  WHERE ${Array.from({ length: rows }, () => '(f.mall_id = ? AND f.shop_order_no = ?)').join(' OR ')}`);

/** The statements that read the failed inputs of `orders` (rows told apart from the orders' by `input_seq`). */
export function failedInputsOf(orders: readonly OrderKey[], dialect: Dialect): Statement[] {
  if (orders.length === 0) return [];
  if (dialect === 'postgres') return [allRows(OF_ORDERS_PG, orderKeysParam(orders))];
  return ladderChunks(orders, 2, 256).map((run) => allRows(ofOrdersSqlite(run.length), ...run.flatMap((order): Param[] => [order.mallId, order.shopOrderNo])));
}

export const isFailedInputRow = (row: object): row is FailedInputRow => 'input_seq' in row;

export function keepFailedInput(seq: number | string, order: OrderKey, error: string, at: string): Statement {
  return changes('INSERT INTO ledger_failed_inputs (input_seq, mall_id, shop_order_no, error, failed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    seq, order.mallId, order.shopOrderNo, error.slice(0, 500), at);
}

export const forgetFailedInput = (seq: number): Statement => changes('DELETE FROM ledger_failed_inputs WHERE input_seq = ?', seq);
