import type { LedgerFact, OrderKey } from '../../../ledger/ledger-facts';
import { allRows, changes, chunks, type Dialect, type Param, type Statement } from '../procedure';

/**
 * The ledger's inputs it could not apply (migration 016): kept with their order, so the order stays
 * `ledger_error` through its later inputs, and retried each time the order is computed (every order
 * by `ledger rebuild`): once the input in ledger_inputs reads as a fact, it is applied and its row goes.
 */
export interface FailedInput {
  seq: number;
  /** The input's stored text, as it is now (a repair corrects it in ledger_inputs). */
  factJson: string;
  error: string;
}

export interface FailedInputRow {
  input_seq: number | string;
  mall_id: string;
  shop_order_no: string;
  error: string;
  fact_json: string | null;
}

const COLUMNS = 'f.input_seq, f.mall_id, f.shop_order_no, f.error, i.fact_json';
const OF_ORDERS_PG = `SELECT ${COLUMNS} FROM unnest(?::text[], ?::text[]) AS k (mall_id, shop_order_no)
  JOIN ledger_failed_inputs f ON f.mall_id = k.mall_id AND f.shop_order_no = k.shop_order_no
  LEFT JOIN ledger_inputs i ON i.seq = f.input_seq`;
const ofOrdersSqlite = (rows: number) => `SELECT ${COLUMNS} FROM ledger_failed_inputs f LEFT JOIN ledger_inputs i ON i.seq = f.input_seq
  WHERE ${Array.from({ length: rows }, () => '(f.mall_id = ? AND f.shop_order_no = ?)').join(' OR ')}`;

/** The statements that read the failed inputs of `orders` (rows told apart from the orders' by `input_seq`). */
export function failedInputsOf(orders: readonly OrderKey[], dialect: Dialect): Statement[] {
  if (orders.length === 0) return [];
  if (dialect === 'postgres') return [allRows(OF_ORDERS_PG, orders.map((o) => o.mallId), orders.map((o) => o.shopOrderNo))];
  return chunks(orders, 2, 256).map((run) => allRows(ofOrdersSqlite(run.length), ...run.flatMap((order): Param[] => [order.mallId, order.shopOrderNo])));
}

export const isFailedInputRow = (row: object): row is FailedInputRow => 'input_seq' in row;

export function keepFailedInput(seq: number | string, order: OrderKey, error: string, at: string): Statement {
  return changes('INSERT INTO ledger_failed_inputs (input_seq, mall_id, shop_order_no, error, failed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    seq, order.mallId, order.shopOrderNo, error.slice(0, 500), at);
}

export const forgetFailedInput = (seq: number): Statement => changes('DELETE FROM ledger_failed_inputs WHERE input_seq = ?', seq);

/**
 * A stored input's text as a fact, or a thrown error saying why it is none: JSON that parses into
 * something without a kind, an id and the two times is no fact either (it would stop the whole
 * batch, not only its order).
 */
export function readInputFact(json: string): LedgerFact {
  const fact = JSON.parse(json) as unknown;
  if (typeof fact !== 'object' || fact === null) throw new Error('it is not a JSON object');
  const { kind, id, at, recordedAt } = fact as Record<string, unknown>;
  for (const [name, value] of Object.entries({ kind, id, at, recordedAt })) if (typeof value !== 'string') throw new Error(`its ${name} is not a string`);
  return fact as LedgerFact;
}
