import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import type { OrderRecord } from '../fold/order-record';
import { foldSettingsKey } from '../fold/fold-state';
import type { LedgerSettings } from '../../config/ledger-settings';
import { PG_ORDER_KEYS, orderKeysParam } from './order-keys';
import { failedInputsOf, isFailedInputRow, type FailedInput } from './failed-inputs';
import { allRows, ladderChunks, sqlBySize, type Dialect, type Param, type Statement } from '../../store/procedures/procedure';

/** The order's key as one string, for maps (JSON: no separator can make two keys one). */
export const orderKeyText = (order: OrderKey): string => JSON.stringify([order.mallId, order.shopOrderNo]);

/** The orders once each, sorted: a batch writes its records, and queues their events, in one order whatever the arrival. */
export function distinctOrders(orders: Iterable<OrderKey>): OrderKey[] {
  const byKey = new Map<string, OrderKey>();
  for (const order of orders) byKey.set(orderKeyText(order), { mallId: order.mallId, shopOrderNo: order.shopOrderNo });
  return [...byKey.values()].sort((a, b) => (a.mallId !== b.mallId ? (a.mallId < b.mallId ? -1 : 1) : a.shopOrderNo < b.shopOrderNo ? -1 : a.shopOrderNo > b.shopOrderNo ? 1 : 0));
}

// The orders are read with their facts: each order by both columns of its unique key, its facts
// by its order_id in a subquery (joined instead, a plan made before the tables had statistics, as
// a prepared statement's generic plan is, may hash the whole facts table for a few orders). The
// facts come as one JSON array of their JSON texts. SQLite takes the orders of a batch as OR'd
// pairs, one index search each. PostgreSQL rechecks every row it finds against the whole OR (a
// cost that grows with the square of the batch: 2 ms for 31 orders), and one statement per order
// costs the event loop a socket write each: it joins the keys, as two arrays, to a search of the
// unique key per key instead (LATERAL, so no plan can read the table to hash it).
const LOOKUPS_EACH = 256;
const ORDER_COLUMNS = 'o.mall_id, o.shop_order_no, o.record_json, o.sweep_at';
const FACTS_OF_ORDER = {
  sqlite: '(SELECT json_group_array(f.fact_json) FROM ledger_facts f WHERE f.order_id = o.order_id)',
  postgres: "COALESCE((SELECT CAST(json_agg(f.fact_json) AS TEXT) FROM ledger_facts f WHERE f.order_id = o.order_id), '[]')",
};
/**
 * Every order's facts, no checkpoint: a rebuild replays from nothing, an expectation is judged on
 * the facts. Else the order's fold checkpoint (migration 019), and its facts only when the
 * checkpoint cannot go on: none, of other settings, or at or after the earliest new input (which
 * may then go before its last moment). An order's facts are its whole history: a batch that reads
 * them for an order of 2,000 inputs reads 2,000 rows, where the checkpoint is one.
 */
const COLUMNS = {
  replay: (dialect: Dialect) => `${ORDER_COLUMNS}, NULL AS fold_settings, NULL AS fold_state, ${FACTS_OF_ORDER[dialect]} AS facts`,
  checkpoint: (dialect: Dialect) => `${ORDER_COLUMNS}, s.settings AS fold_settings, s.state_json AS fold_state,
    CASE WHEN s.state_json IS NULL OR s.settings <> ? OR s.last_moment >= ? THEN ${FACTS_OF_ORDER[dialect]} END AS facts`,
};
const CHECKPOINT_JOIN = 'LEFT JOIN ledger_fold_states s ON s.order_id = o.order_id';
const PAIRS = (rows: number) => Array.from({ length: rows }, () => '(o.mall_id = ? AND o.shop_order_no = ?)').join(' OR ');
const LOAD_PAIRS = {
  replay: sqlBySize((rows) => `SELECT ${COLUMNS.replay('sqlite')} FROM ledger_orders o WHERE ${PAIRS(rows)}`),
  checkpoint: sqlBySize((rows) => `SELECT ${COLUMNS.checkpoint('sqlite')} FROM ledger_orders o ${CHECKPOINT_JOIN} WHERE ${PAIRS(rows)}`),
};
// The keys come as one JSON parameter (`jsonRows`): one statement text whatever the count, prepared
// once per connection (a VALUES list was a new text, parsed and planned again, for every count of orders).
const KEYS = `${PG_ORDER_KEYS.from} AS k
  CROSS JOIN LATERAL (SELECT * FROM ledger_orders WHERE mall_id = k.mall_id AND shop_order_no = k.shop_order_no OFFSET 0) o`;
const LOAD_LIST = {
  replay: `SELECT ${COLUMNS.replay('postgres')} FROM ${KEYS}`,
  checkpoint: `SELECT ${COLUMNS.checkpoint('postgres')} FROM ${KEYS} ${CHECKPOINT_JOIN}`,
};

export interface LoadRow {
  mall_id: string;
  shop_order_no: string;
  record_json: string | null;
  sweep_at: number | string | null;
  fold_settings: string | null;
  fold_state: string | null;
  /** A JSON array of the facts' JSON texts ('[]' when there are none); null when not read. */
  facts: string | null;
}

/** What an order's computation starts from: its facts (a replay), or its checkpoint and the facts only where it cannot go on. */
export type LoadFrom = { replay: true } | { replay: false; newFacts: ReadonlyArray<{ fact: LedgerFact }>; settings: LedgerSettings };

export const REPLAY: LoadFrom = { replay: true };

/**
 * The statements that read what the orders hold: their stored records, and their facts or their
 * fold checkpoints (`from`). No row lock: on
 * PostgreSQL every write transaction takes the outbox-order lock as it begins (group-commit.ts),
 * so write transactions run one at a time across replicas and nothing read here can change
 * before this transaction commits; SQLite has one writer. A new order's row is written once,
 * with its first record.
 */
export function loadOrders(orders: readonly OrderKey[], dialect: Dialect, from: LoadFrom = REPLAY): Statement[] {
  const failed = failedInputsOf(orders, dialect);
  const mode = from.replay ? 'replay' : 'checkpoint';
  const wanted: Param[] = from.replay ? [] : [foldSettingsKey(from.settings), earliestMs(from.newFacts)];
  if (dialect === 'postgres') return orders.length === 0 ? [] : [allRows(LOAD_LIST[mode], ...wanted, orderKeysParam(orders)), ...failed];
  return [...ladderChunks(orders, 2, LOOKUPS_EACH).map((run) => allRows(LOAD_PAIRS[mode](run.length), ...wanted, ...run.flatMap((order): Param[] => [order.mallId, order.shopOrderNo]))), ...failed];
}

/** The earliest stored time among new facts (past any checkpoint when there are none: the sweep goes on from each). */
function earliestMs(facts: ReadonlyArray<{ fact: LedgerFact }>): number {
  let earliest = Number.MAX_SAFE_INTEGER;
  for (const { fact } of facts) {
    const ms = Date.parse(fact.recordedAt);
    // Unreadable: the orders' facts are read, and the fold says what is wrong with it.
    if (Number.isNaN(ms)) return Number.MIN_SAFE_INTEGER;
    if (ms < earliest) earliest = ms;
  }
  return earliest;
}

export interface LoadedOrder {
  order: OrderKey;
  /** The order has a row (a new order's row is written with its first record). */
  exists: boolean;
  /** The stored record as stored (JSON): compared as text, parsed only when the record changed. */
  storedJson: string | null;
  sweepAt: number | null;
  /** The order's stored facts, when they were read (`factsRead`; an order without a row has none). */
  facts: LedgerFact[];
  factsRead: boolean;
  /** The fold checkpoint stored for the order (JSON) and the settings key it was folded under; null when none was read. */
  checkpoint: { json: string; settings: string } | null;
  /** A stored fact that could not be read (corrupt JSON): the order is a `ledger_error`, the others go on. */
  loadError: string | null;
  /** Inputs of the order the ledger could not apply, kept: retried at each computation, the order `ledger_error` while one fails. */
  failedInputs: FailedInput[];
}

/** The answers of `loadOrders`' statements, per order. */
export function loadedOrders(orders: readonly OrderKey[], answers: readonly unknown[]): Map<string, LoadedOrder> {
  const loaded = new Map<string, LoadedOrder>();
  for (const order of orders) loaded.set(orderKeyText(order), { order, exists: false, storedJson: null, sweepAt: null, facts: [], factsRead: true, checkpoint: null, loadError: null, failedInputs: [] });
  for (const rows of answers as LoadRow[][]) {
    for (const row of rows) {
      const entry = loaded.get(orderKeyText({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }));
      if (!entry) continue;
      if (isFailedInputRow(row)) {
        entry.failedInputs.push({ seq: Number(row.input_seq), factJson: row.fact_json ?? '', error: row.error });
        continue;
      }
      entry.exists = true;
      entry.storedJson = row.record_json;
      entry.sweepAt = row.sweep_at === null ? null : Number(row.sweep_at);
      entry.checkpoint = row.fold_state === null || row.fold_settings === null ? null : { json: row.fold_state, settings: row.fold_settings };
      entry.factsRead = row.facts !== null;
      try {
        for (const fact of row.facts === null ? [] : (JSON.parse(row.facts) as string[])) entry.facts.push(JSON.parse(fact) as LedgerFact);
      } catch (error) {
        entry.loadError = `a stored fact cannot be read: ${(error as Error).message}`;
      }
    }
  }
  return loaded;
}

export const storedRecord = (entry: LoadedOrder): OrderRecord | null => {
  if (entry.storedJson === null) return null;
  try {
    return JSON.parse(entry.storedJson) as OrderRecord;
  } catch {
    // A corrupt stored record is only what the events compare with: the new one replaces it.
    return null;
  }
};
