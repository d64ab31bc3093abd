import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import type { NormalizedEvent } from '../../notifications/normalized-event';
import { PG_ORDER_KEYS, orderKeysParam } from './order-keys';
import { storedFactOf } from '../../store/procedures/inbox-outbox/inbox-row';
import { allRows, changes, ladderChunks, sqlBySize, type Dialect, type Param, type Statement } from '../../store/procedures/procedure';

/**
 * The ledger's inputs it could not apply (migration 016): kept with their order, so the order stays
 * `ledger_error` through its later inputs, and retried each time the order is computed (every order
 * by `ledger rebuild`): once the input reads as a fact, it is applied and its row goes. Two kinds
 * share the table's one key column: an input of ledger_inputs by its seq, and a notification of the
 * inbox (a stored event that names its order but reads as no event) by its inbox seq negated —
 * both sequences start at 1, so the sign tells them apart.
 */
export interface FailedInput {
  seq: number;
  /** The input's stored text, as it is now (a repair corrects it in ledger_inputs, or the event in the inbox). */
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

/** The key a failed notification is kept under: its inbox seq, negated. */
export const failedNotificationSeq = (inboxSeq: number | string): number => -Number(inboxSeq);

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

/**
 * A kept input as the fact to apply now, or a thrown error saying why it still is none; `null` for
 * a notification repaired into one that names no order (nothing of the ledger's to apply).
 */
export function readFailedInput(input: FailedInput): { fact: LedgerFact; json: string } | null {
  if (input.seq > 0) return { fact: readInputFact(input.factJson), json: input.factJson };
  const made = readInboxEvent(input.factJson);
  return made && { fact: made.fact, json: made.json };
}

/** A stored inbox event as the ledger's fact with its order: a throw (not an object, a field missing) says it reads as no event. */
function readInboxEvent(eventJson: string): { order: OrderKey; fact: LedgerFact; json: string } | null {
  return inboxEventFact(JSON.parse(eventJson) as unknown);
}

/** `readInboxEvent` of an event already parsed: the projector parses each stored event once, for its fact and its search row. */
export function inboxEventFact(event: unknown): { order: OrderKey; fact: LedgerFact; json: string } | null {
  if (typeof event !== 'object' || event === null) throw new Error('its stored event is not a JSON object');
  const { mallId } = event as Record<string, unknown>;
  if (typeof mallId !== 'string') throw new Error('its mallId is not a string');
  const made = storedFactOf(event as NormalizedEvent);
  return made && { order: { mallId, shopOrderNo: (event as NormalizedEvent).shopOrderNo! }, ...made };
}

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
  if (kind === 'expectation') checkExpectation(fact as Record<string, unknown>);
  return fact as LedgerFact;
}

/**
 * What the status weighs the order's money against: an amount that is no integer (`"30,000"`)
 * compares as neither less nor more than any payment, and the order would read `paid`.
 */
function checkExpectation(fact: Record<string, unknown>): void {
  const { amount, currency } = fact;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) throw new Error('its amount is not an amount');
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw new Error('its currency is not a currency code');
}
