import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import { orderKeyText } from '../fold/order-key';
import type { LedgerSettings } from '../../config/ledger-settings';
import type { FoldCache } from '../projection/fold-cache';
import { unreadOrder, type LoadedOrder } from '../projection/loaded-order';
import { needsFacts } from '../projection/order-computation';
import { PG_ORDER_KEYS, orderKeysParam } from './order-keys';
import { failedInputsOf, isFailedInputRow } from './failed-inputs';
import { orderItemsColumn, storedItems } from './order-items';
import { allRows, dialect, ladderChunks, oneTrip, sqlBySize, type Dialect, type Param, type Procedure, type Statement } from '../../store/procedures/procedure';

// The orders are read with their facts: each order by both columns of its unique key, its facts
// by its order_id in a subquery (joined instead, a plan made before the tables had statistics, as
// a prepared statement's generic plan is, may hash the whole facts table for a few orders). The
// facts come as one JSON array of their JSON texts. SQLite takes the orders of a batch as OR'd
// pairs, one index search each. PostgreSQL rechecks every row it finds against the whole OR (a
// cost that grows with the square of the batch: 2 ms for 31 orders), and one statement per order
// costs the event loop a socket write each: it joins the keys, as two arrays, to a search of the
// unique key per key instead (LATERAL, so no plan can read the table to hash it).
const LOOKUPS_EACH = 256;
// The stored record is its header and its items (migration 031): a replay reads both in one row; a
// batch that goes on reads the header, and the items only where the projector's cache does not
// hold them as its last write stored them.
const ORDER_COLUMNS = 'o.mall_id, o.shop_order_no, o.record_json, o.sweep_at, o.summary_day';
const FACTS_OF_ORDER = {
  sqlite: '(SELECT json_group_array(f.fact_json) FROM ledger_facts f WHERE f.order_id = o.order_id)',
  postgres: "COALESCE((SELECT CAST(json_agg(f.fact_json) AS TEXT) FROM ledger_facts f WHERE f.order_id = o.order_id), '[]')",
};
const FOLD_POSITION = 's.settings AS fold_settings, s.last_moment AS fold_moment, s.version AS fold_version';
/**
 * Every order's facts, no fold position: a rebuild replays from nothing, an expectation is judged
 * on the facts. Else the orders' fold positions (migration 030) without their facts, which a second
 * read fetches only for the orders whose fold cannot go on (`needsFacts`). An order's facts are its
 * whole history: a batch that reads them for an order of 2,000 inputs reads 2,000 rows. `whole` is
 * both at once, for an order whose fold cannot go on whatever its position says (`loadGoingOn`).
 */
const COLUMNS = {
  replay: (dialect: Dialect) => `${ORDER_COLUMNS}, ${orderItemsColumn(dialect, 'o')} AS record_items, NULL AS fold_settings, NULL AS fold_moment, NULL AS fold_version, ${FACTS_OF_ORDER[dialect]} AS facts`,
  positions: () => `${ORDER_COLUMNS}, NULL AS record_items, ${FOLD_POSITION}, NULL AS facts`,
  whole: (dialect: Dialect) => `${ORDER_COLUMNS}, ${orderItemsColumn(dialect, 'o')} AS record_items, ${FOLD_POSITION}, ${FACTS_OF_ORDER[dialect]} AS facts`,
  facts: (dialect: Dialect) => `o.mall_id, o.shop_order_no, ${FACTS_OF_ORDER[dialect]} AS facts`,
  items: (dialect: Dialect) => `o.mall_id, o.shop_order_no, ${orderItemsColumn(dialect, 'o')} AS record_items`,
};
const POSITION_JOIN = 'LEFT JOIN ledger_fold_positions s ON s.order_id = o.order_id';
const PAIRS = (rows: number) => Array.from({ length: rows }, () => '(o.mall_id = ? AND o.shop_order_no = ?)').join(' OR ');
const LOAD_PAIRS = {
  replay: sqlBySize((rows) => `SELECT ${COLUMNS.replay('sqlite')} FROM ledger_orders o WHERE ${PAIRS(rows)}`),
  positions: sqlBySize((rows) => `SELECT ${COLUMNS.positions()} FROM ledger_orders o ${POSITION_JOIN} WHERE ${PAIRS(rows)}`),
  whole: sqlBySize((rows) => `SELECT ${COLUMNS.whole('sqlite')} FROM ledger_orders o ${POSITION_JOIN} WHERE ${PAIRS(rows)}`),
  facts: sqlBySize((rows) => `SELECT ${COLUMNS.facts('sqlite')} FROM ledger_orders o WHERE ${PAIRS(rows)}`),
  items: sqlBySize((rows) => `SELECT ${COLUMNS.items('sqlite')} FROM ledger_orders o WHERE ${PAIRS(rows)}`),
};
// The keys come as one JSON parameter (`jsonRows`): one statement text whatever the count, prepared
// once per connection (a VALUES list was a new text, parsed and planned again, for every count of orders).
const KEYS = `${PG_ORDER_KEYS.from} AS k
  CROSS JOIN LATERAL (SELECT * FROM ledger_orders WHERE mall_id = k.mall_id AND shop_order_no = k.shop_order_no OFFSET 0) o`;
const LOAD_LIST = {
  replay: `SELECT ${COLUMNS.replay('postgres')} FROM ${KEYS}`,
  positions: `SELECT ${COLUMNS.positions()} FROM ${KEYS} ${POSITION_JOIN}`,
  whole: `SELECT ${COLUMNS.whole('postgres')} FROM ${KEYS} ${POSITION_JOIN}`,
  facts: `SELECT ${COLUMNS.facts('postgres')} FROM ${KEYS}`,
  items: `SELECT ${COLUMNS.items('postgres')} FROM ${KEYS}`,
};
type LoadMode = keyof typeof LOAD_LIST;

export interface LoadRow {
  mall_id: string;
  shop_order_no: string;
  record_json: string | null;
  record_items: string | null;
  sweep_at: number | string | null;
  summary_day: string | null;
  fold_settings: string | null;
  fold_moment: number | string | null;
  fold_version: string | null;
  /** A JSON array of the facts' JSON texts ('[]' when there are none); null when not read. */
  facts: string | null;
}

/**
 * The statements that read what the orders hold, with their facts (a replay: a rebuild, an
 * expectation judged on them), or with their fold positions instead (`loadGoingOn` then reads the
 * facts of the orders that need them). No row lock: on PostgreSQL every write transaction takes the
 * outbox-order lock as it begins (group-commit.ts), so write transactions run one at a time across
 * replicas and nothing read here can change before this transaction commits; SQLite has one
 * writer. A new order's row is written once, with its first record.
 */
export function loadOrders(orders: readonly OrderKey[], dialect: Dialect, mode: 'replay' | 'positions' = 'replay'): Statement[] {
  return [...lookups(orders, dialect, mode), ...failedInputsOf(orders, dialect)];
}

function lookups(orders: readonly OrderKey[], dialect: Dialect, mode: LoadMode): Statement[] {
  if (dialect === 'postgres') return orders.length === 0 ? [] : [allRows(LOAD_LIST[mode], orderKeysParam(orders))];
  return ladderChunks(orders, 2, LOOKUPS_EACH).map((run) => allRows(LOAD_PAIRS[mode](run.length), ...run.flatMap((order): Param[] => [order.mallId, order.shopOrderNo])));
}

/**
 * The orders as a batch that goes on from their folds reads them: their records and fold
 * positions, then, in a second read, the facts of those whose fold cannot go on from the state the
 * projector's cache kept (`needsFacts`), and the items of those whose record it did not keep. An
 * order the cache keeps nothing of (every order where there is no cache, on the writer; an order
 * of a few facts, which is replayed at each input) needs both whatever its position says: it is
 * read whole in the first read, one search of its key instead of three and one round trip less.
 */
export function* loadGoingOn(orders: readonly OrderKey[], newFacts: ReadonlyArray<{ fact: LedgerFact }>, settings: LedgerSettings, cache: FoldCache | null): Procedure<Map<string, LoadedOrder>> {
  if (orders.length === 0) return new Map();
  const sql = yield* dialect();
  const kept = orders.filter((order) => cache?.keeps(order) === true);
  const unkept = orders.filter((order) => cache?.keeps(order) !== true);
  const loaded = loadedOrders(orders, yield* oneTrip(...lookups(unkept, sql, 'whole'), ...lookups(kept, sql, 'positions'), ...failedInputsOf(orders, sql)));
  const earliest = earliestMs(newFacts);
  const goingOn = kept.map((order) => loaded.get(orderKeyText(order))!);
  const wanting = goingOn.filter((entry) => needsFacts(entry, earliest, settings, cache)).map((entry) => entry.order);
  const unread = goingOn.filter((entry) => entry.storedJson !== null && !withKeptRecord(entry, cache)).map((entry) => entry.order);
  if (wanting.length > 0 || unread.length > 0) withRead(loaded, (yield* oneTrip(...lookups(wanting, sql, 'facts'), ...lookups(unread, sql, 'items'))) as LoadRow[][]);
  return loaded;
}

/** The facts of loaded orders whose fold went on from a kept state, read now (a decision of the batch needs them). */
export function* readFactsOf(loaded: Map<string, LoadedOrder>, orders: readonly OrderKey[]): Procedure<void> {
  if (orders.length === 0) return;
  const sql = yield* dialect();
  withRead(loaded, (yield* oneTrip(...lookups(orders, sql, 'facts'))) as LoadRow[][]);
}

/** The earliest stored time among new facts (past any position when there are none: the sweep goes on from each). */
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

/** The answers of `loadOrders`' statements, per order. */
export function loadedOrders(orders: readonly OrderKey[], answers: readonly unknown[]): Map<string, LoadedOrder> {
  const loaded = new Map<string, LoadedOrder>();
  for (const order of orders) loaded.set(orderKeyText(order), unreadOrder(order));
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
      addItems(entry, row.record_items);
      entry.sweepAt = row.sweep_at === null ? null : Number(row.sweep_at);
      entry.summaryDay = row.summary_day;
      entry.foldPosition = row.fold_version === null || row.fold_settings === null
        ? null
        : { settings: row.fold_settings, lastMoment: row.fold_moment === null ? null : Number(row.fold_moment), version: row.fold_version };
      entry.factsRead = false;
      addFacts(entry, row.facts);
    }
  }
  return loaded;
}

/**
 * The order's stored record as the projector's cache kept it with its state, under the token the
 * store holds and with the header the store holds: its items are not read.
 */
function withKeptRecord(entry: LoadedOrder, cache: FoldCache | null): boolean {
  const kept = entry.foldPosition === null ? null : cache?.keptRecord(entry.order, entry.foldPosition.version) ?? null;
  if (kept === null || kept.header !== entry.storedJson) return false;
  entry.storedItems = kept.items;
  entry.keptRecord = kept.record;
  return true;
}

/** What the second read found (facts, or a record's items), each to its order. */
function withRead(loaded: Map<string, LoadedOrder>, answers: readonly LoadRow[][]): void {
  for (const rows of answers) for (const row of rows) {
    const entry = loaded.get(orderKeyText({ mallId: row.mall_id, shopOrderNo: row.shop_order_no }));
    if (!entry) continue;
    if ('facts' in row) addFacts(entry, row.facts);
    if ('record_items' in row) addItems(entry, row.record_items);
  }
}

function addItems(entry: LoadedOrder, items: string | null): void {
  try {
    entry.storedItems = storedItems(items);
  } catch {
    // Unreadable items: the record reads as unknown to the events and its lists are written again whole.
    entry.storedItems = new Map();
  }
}

function addFacts(entry: LoadedOrder, facts: string | null): void {
  if (facts === null) return;
  entry.factsRead = true;
  try {
    for (const fact of JSON.parse(facts) as string[]) entry.facts.push(JSON.parse(fact) as LedgerFact);
  } catch (error) {
    entry.loadError = `a stored fact cannot be read: ${(error as Error).message}`;
  }
}
