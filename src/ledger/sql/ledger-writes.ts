import type { OrderChanges } from '../projection/order-changes';
import type { QueuedEvent } from '../projection/order-events';
import { sha256Hex } from '../../sha256-hex';
import { forgetFailedInput } from './failed-inputs';
import { checkpointWrites } from './fold-checkpoints';
import { itemStatements } from './order-items';
import { summaryWrites } from './summary/summary-writes';
import { ownEventStatements, type OwnEvent } from '../../store/procedures/inbox-outbox/own-events';
import { jsonRows, type JsonRows } from '../../store/procedures/json-rows';
import { changes, chunks, ladderRowInserts, placeholders, sqlBySize, valueRows, type Dialect, type Param, type Statement } from '../../store/procedures/procedure';

const FACT_COLUMNS = 6;
// A fact is keyed by its order's order_id (migration 010), found by the order's key: the order's row
// exists by then (written before the facts when new).
const INSERT_FACTS = sqlBySize((rows) => `INSERT INTO ledger_facts (order_id, id, kind, recorded_at, fact_json)
  VALUES ${Array.from({ length: rows }, () => '((SELECT order_id FROM ledger_orders WHERE mall_id = ? AND shop_order_no = ?), ?, ?, ?, ?)').join(', ')}
  ON CONFLICT DO NOTHING`);
const ORDER_COLUMNS = 7;
const UPSERT_ORDERS = sqlBySize((rows) => `INSERT INTO ledger_orders (mall_id, shop_order_no, status, record_json, sweep_at, updated_at, summary_day)
  VALUES ${valueRows(rows, ORDER_COLUMNS)}
  ON CONFLICT (mall_id, shop_order_no) DO UPDATE SET status = excluded.status, record_json = excluded.record_json,
    sweep_at = excluded.sweep_at, updated_at = excluded.updated_at, summary_day = excluded.summary_day`);
const DISCREPANCY_COLUMNS = 9;
const UPSERT_DISCREPANCIES = sqlBySize((rows) => `INSERT INTO ledger_discrepancies (id, mall_id, shop_order_no, kind, opened_at,
    resolved_at, resolved_by, note, discrepancy_json)
  VALUES ${valueRows(rows, DISCREPANCY_COLUMNS)}
  ON CONFLICT (id) DO UPDATE SET opened_at = excluded.opened_at, resolved_at = excluded.resolved_at,
    resolved_by = excluded.resolved_by, note = excluded.note, discrepancy_json = excluded.discrepancy_json`);
const DELETE_DISCREPANCIES = sqlBySize((rows) => `DELETE FROM ledger_discrepancies WHERE id IN (${placeholders(rows)})`);
// PostgreSQL: each multi-row write as one fixed text over one JSON parameter of its rows (see
// `jsonRows`): prepared once per connection, whatever the batch's size. A VALUES list of 1,000
// facts, each finding its order_id in a subquery of its own, took PostgreSQL about 0.3 s to plan
// and run per projector batch; the same rows from one parameter, each order found by its unique key
// (LATERAL, so no plan hashes the table), take a few ms. Rows keep their order (ORDINALITY): a new
// order's order_id is drawn in it.
const PG_ORDERS = jsonRows([['mall_id', 'text'], ['shop_order_no', 'text'], ['status', 'text'], ['record_json', 'text'], ['sweep_at', 'bigint'], ['updated_at', 'text'], ['summary_day', 'text']]);
const PG_UPSERT_ORDERS = `INSERT INTO ledger_orders (mall_id, shop_order_no, status, record_json, sweep_at, updated_at, summary_day)
  SELECT r.mall_id, r.shop_order_no, r.status, r.record_json, r.sweep_at, r.updated_at, r.summary_day
  FROM ${PG_ORDERS.from} AS r
  ORDER BY r.n
  ON CONFLICT (mall_id, shop_order_no) DO UPDATE SET status = excluded.status, record_json = excluded.record_json,
    sweep_at = excluded.sweep_at, updated_at = excluded.updated_at, summary_day = excluded.summary_day`;
const PG_FACTS = jsonRows([['mall_id', 'text'], ['shop_order_no', 'text'], ['id', 'text'], ['kind', 'text'], ['recorded_at', 'text'], ['fact_json', 'text']]);
const PG_INSERT_FACTS = `INSERT INTO ledger_facts (order_id, id, kind, recorded_at, fact_json)
  SELECT o.order_id, f.id, f.kind, f.recorded_at, f.fact_json
  FROM ${PG_FACTS.from} AS f
  CROSS JOIN LATERAL (SELECT order_id FROM ledger_orders WHERE mall_id = f.mall_id AND shop_order_no = f.shop_order_no OFFSET 0) o
  ON CONFLICT DO NOTHING`;
const PG_DISCREPANCIES = jsonRows([['id', 'text'], ['mall_id', 'text'], ['shop_order_no', 'text'], ['kind', 'text'], ['opened_at', 'text'],
  ['resolved_at', 'text'], ['resolved_by', 'text'], ['note', 'text'], ['discrepancy_json', 'text']]);
const PG_UPSERT_DISCREPANCIES = `INSERT INTO ledger_discrepancies (id, mall_id, shop_order_no, kind, opened_at,
    resolved_at, resolved_by, note, discrepancy_json)
  SELECT d.id, d.mall_id, d.shop_order_no, d.kind, d.opened_at, d.resolved_at, d.resolved_by, d.note, d.discrepancy_json
  FROM ${PG_DISCREPANCIES.from} AS d
  ON CONFLICT (id) DO UPDATE SET opened_at = excluded.opened_at, resolved_at = excluded.resolved_at,
    resolved_by = excluded.resolved_by, note = excluded.note, discrepancy_json = excluded.discrepancy_json`;
const PG_DELETE_DISCREPANCIES = 'DELETE FROM ledger_discrepancies WHERE id = ANY(?::text[])';
/** The multi-row writes of the ledger's tables, as the dialect takes them best. */
function tableWrites({ records, facts, discrepancies, gone }: OrderChanges, dialect: Dialect): Statement[] {
  const orderRows = records.map(({ order, record, header, sweepAt, summaryDay }): Param[] => [order.mallId, order.shopOrderNo, record?.status ?? null, header, sweepAt, record?.updatedAt ?? null, summaryDay]);
  const factRows = facts.map(({ order, fact, json }): Param[] => [order.mallId, order.shopOrderNo, fact.id, fact.kind, fact.recordedAt, json]);
  const discrepancyRows = discrepancies.map(({ order, discrepancy: d }): Param[] => [d.id, order.mallId, order.shopOrderNo, d.kind, d.openedAt, d.resolvedAt, d.resolvedBy, d.note, JSON.stringify(d)]);
  if (dialect === 'postgres') {
    const each = (sql: string, json: JsonRows, rows: Param[][]) => (rows.length === 0 ? [] : [changes(sql, json.rowsParam(rows))]);
    return [
      ...each(PG_UPSERT_ORDERS, PG_ORDERS, orderRows),
      ...itemStatements(records, dialect),
      ...each(PG_INSERT_FACTS, PG_FACTS, factRows),
      ...each(PG_UPSERT_DISCREPANCIES, PG_DISCREPANCIES, discrepancyRows),
      ...(gone.length === 0 ? [] : [changes(PG_DELETE_DISCREPANCIES, gone)]),
    ];
  }
  return [
    ...ladderRowInserts(UPSERT_ORDERS, ORDER_COLUMNS, orderRows),
    ...itemStatements(records, dialect),
    ...ladderRowInserts(INSERT_FACTS, FACT_COLUMNS, factRows),
    ...ladderRowInserts(UPSERT_DISCREPANCIES, DISCREPANCY_COLUMNS, discrepancyRows),
    ...chunks(gone, 1).map((ids) => changes(DELETE_DISCREPANCIES(ids.length), ...ids)),
  ];
}

/**
 * A batch's changes as statements (`now`: the time the batch is computed as of, its events'
 * stored time): `statements` write the ledger's own tables; `events` queue the
 * events (the caller yields `outboxChanged()` between the two when there are any, so that on
 * PostgreSQL the lock that orders the outbox is held only while the events draw their positions,
 * not while the records are written).
 */
export function changeStatements(changed: OrderChanges, now: string, dialect: Dialect): { statements: Statement[]; events: Statement[] } {
  const statements = [
    ...tableWrites(changed, dialect),
    ...checkpointWrites(changed.checkpoints, changed.forgotten, dialect),
    ...summaryWrites(changed.summary, dialect),
    ...changed.applied.map(forgetFailedInput),
  ];
  return { statements, events: ownEventStatements('ledger', changed.events.map(ownEvent), now, dialect) };
}

/**
 * A ledger event as the service's own inbox row holds it. No shop_order_no: a search by order
 * number lists the gateway's notifications, the ledger's view of the order is its record, and the
 * ack's commit writes one index page fewer.
 */
function ownEvent({ event, mallId, pgCno }: QueuedEvent): OwnEvent {
  const json = JSON.stringify(event);
  return { id: event.id, type: event.type, mallId, pgCno, json, bodyHash: sha256Hex(json) };
}
