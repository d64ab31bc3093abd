import type { OrderKey } from '../fold/ledger-facts';
import type { StoredCheckpoint } from '../projection/order-changes';
import { jsonRows } from '../../store/procedures/json-rows';
import { changes, ladderRowInserts, sqlBySize, type Dialect, type Param, type Statement } from '../../store/procedures/procedure';

const CHECKPOINT_COLUMNS = 5;
// After the orders' rows (a new order's order_id is found by its key, as its facts find it).
const UPSERT_CHECKPOINTS = sqlBySize((rows) => `INSERT INTO ledger_fold_positions (order_id, settings, last_moment, version)
  VALUES ${Array.from({ length: rows }, () => '((SELECT order_id FROM ledger_orders WHERE mall_id = ? AND shop_order_no = ?), ?, ?, ?)').join(', ')}
  ON CONFLICT (order_id) DO UPDATE SET settings = excluded.settings, last_moment = excluded.last_moment, version = excluded.version`);
const PG_CHECKPOINTS = jsonRows([['mall_id', 'text'], ['shop_order_no', 'text'], ['settings', 'text'], ['last_moment', 'bigint'], ['version', 'text']]);
const PG_UPSERT_CHECKPOINTS = `INSERT INTO ledger_fold_positions (order_id, settings, last_moment, version)
  SELECT o.order_id, c.settings, c.last_moment, c.version
  FROM ${PG_CHECKPOINTS.from} AS c
  CROSS JOIN LATERAL (SELECT order_id FROM ledger_orders WHERE mall_id = c.mall_id AND shop_order_no = c.shop_order_no OFFSET 0) o
  ON CONFLICT (order_id) DO UPDATE SET settings = excluded.settings, last_moment = excluded.last_moment, version = excluded.version`;
// Rare (an order left ledger_error): one statement each.
const FORGET_CHECKPOINT = 'DELETE FROM ledger_fold_positions WHERE order_id = (SELECT order_id FROM ledger_orders WHERE mall_id = ? AND shop_order_no = ?)';

/** The fold positions' writes: the moved ones stored, the forgotten ones' rows deleted. */
export function checkpointWrites(stored: readonly StoredCheckpoint[], forgotten: readonly OrderKey[], dialect: Dialect): Statement[] {
  const rows = stored.map((c): Param[] => [c.order.mallId, c.order.shopOrderNo, c.settings, c.lastMoment, c.version]);
  const upserts = dialect === 'postgres'
    ? (rows.length === 0 ? [] : [changes(PG_UPSERT_CHECKPOINTS, PG_CHECKPOINTS.rowsParam(rows))])
    : ladderRowInserts(UPSERT_CHECKPOINTS, CHECKPOINT_COLUMNS, rows);
  return [...upserts, ...forgotten.map((order) => changes(FORGET_CHECKPOINT, order.mallId, order.shopOrderNo))];
}
