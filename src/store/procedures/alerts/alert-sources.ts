import { orderKeyText } from '../../../ledger/fold/order-key';
import type { OrderRecord } from '../../../ledger/fold/order-record';
import type { AlertSources, DeadEventRow, RealOrderDiscrepancies } from '../../types/alerts';
import { jsonFlag } from '../json-field';
import { recordColumns, storedOrderRecord, type StoredRecordRow } from '../../../ledger/sql/order-items';
import { all, dialect, get, type Procedure } from '../procedure';

// The ledger's events are internal inbox rows (ledger-writes.ts); a status change matters when it is
// to ledger_error, and a change of an order with an open discrepancy because the order may have just
// turned out real (its discrepancies, held back while it looked simulated, are news then). Their
// JSON says so; each is checked again once parsed.
const LEDGER_EVENTS = `SELECT seq, event_json AS "eventJson" FROM inbox
  WHERE seq > ? AND seq <= ? AND origin = 'ledger'
    AND (event_type = 'ledger.discrepancy' OR (event_type = 'order.status_changed' AND event_json LIKE '%"to":"ledger_error"%')
      OR (event_type IN ('order.status_changed', 'order.updated')
        AND (event_json LIKE '%"status":"discrepancy"%' OR event_json LIKE '%"status":"refund_failed"%')))
  ORDER BY seq LIMIT ?`;
// A left join: an event pruned by retention since still has its id. `simulated`: the receipt's
// checked mark of the simulator, as the stored event says (source.simulator), so the alert says so.
const DEAD_EVENTS = (simulated: string) => `SELECT a.id AS "attemptId", a.event_id AS "eventId", i.event_type AS "eventType", i.mall_id AS "mallId",
    i.shop_order_no AS "shopOrderNo", a.attempt AS attempts, a.at, ${simulated} AS simulated
  FROM delivery_attempts a LEFT JOIN outbox o ON o.seq = a.outbox_seq LEFT JOIN inbox i ON i.seq = o.inbox_seq
  WHERE a.id > ? AND a.id <= ? AND a.outcome = 'dead'
  ORDER BY a.id LIMIT ?`;

/**
 * What the alerts' follower has not looked at, up to the stored rows' ends as they are now: at most
 * `limit` of each kind, and the position after them. Every write transaction draws its seqs in
 * commit order (on PostgreSQL under the outbox-order lock), so nothing appears later behind `to`.
 */
export function* alertSources(limit: number): Procedure<AlertSources> {
  const at = yield* get<{ inbox_seq: number | string; attempt_id: number | string }>('SELECT inbox_seq, attempt_id FROM alert_position WHERE id = 1');
  const ends = yield* get<{ inbox: number | string | null; attempt: number | string | null }>(
    'SELECT (SELECT MAX(seq) FROM inbox) AS inbox, (SELECT MAX(id) FROM delivery_attempts) AS attempt',
  );
  const from = { inboxSeq: Number(at?.inbox_seq ?? 0), attemptId: Number(at?.attempt_id ?? 0) };
  const endInbox = Math.max(from.inboxSeq, Number(ends?.inbox ?? 0));
  const endAttempt = Math.max(from.attemptId, Number(ends?.attempt ?? 0));
  const events = yield* all<{ seq: number | string; eventJson: string }>(LEDGER_EVENTS, from.inboxSeq, endInbox, limit);
  const simulatedEvent = jsonFlag(yield* dialect(), 'i.event_json', ['source', 'simulator']);
  const dead = yield* all<Omit<DeadEventRow, 'simulated'> & { attemptId: number | string; attempts: number | string | null; simulated: boolean | number | null }>(
    DEAD_EVENTS(simulatedEvent), from.attemptId, endAttempt, limit);
  const { simulatedOrders, realOrders } = yield* ordersOf(events.map((e) => e.eventJson));
  return {
    from,
    // A full page stops at its last row: the rest is the next look's.
    to: {
      inboxSeq: events.length === limit ? Number(events.at(-1)!.seq) : endInbox,
      attemptId: dead.length === limit ? Number(dead.at(-1)!.attemptId) : endAttempt,
    },
    ledgerEvents: events.map((e) => ({ seq: Number(e.seq), eventJson: e.eventJson })),
    deadEvents: dead.map((d) => ({ ...d, attemptId: Number(d.attemptId), attempts: d.attempts === null ? null : Number(d.attempts), simulated: Boolean(d.simulated) })),
    simulatedOrders,
    realOrders,
  };
}

/**
 * Which of the events' orders the simulator made up (their records say so, as they stand now), each
 * by its unique key; and, for the changes of orders that are real now, their open discrepancies.
 */
function* ordersOf(eventJsons: readonly string[]): Procedure<Pick<AlertSources, 'simulatedOrders' | 'realOrders'>> {
  const orders = new Map<string, { mallId: string; shopOrderNo: string; changed: boolean }>();
  for (const json of eventJsons) {
    try {
      const event = JSON.parse(json) as { type?: unknown; order?: { mallId?: unknown; shopOrderNo?: unknown } };
      const { order } = event;
      if (typeof order?.mallId !== 'string' || typeof order.shopOrderNo !== 'string') continue;
      const key = orderKeyText({ mallId: order.mallId, shopOrderNo: order.shopOrderNo });
      const changed = event.type === 'order.updated' || event.type === 'order.status_changed';
      orders.set(key, { mallId: order.mallId, shopOrderNo: order.shopOrderNo, changed: changed || orders.get(key)?.changed === true });
    } catch {
      // An event that does not parse calls for no alert anyway.
    }
  }
  const flag = jsonFlag(yield* dialect(), 'record_json', ['simulated']);
  const simulatedOrders: string[] = [];
  const realOrders: RealOrderDiscrepancies[] = [];
  for (const [key, order] of orders) {
    const row = yield* get<{ simulated: boolean | number }>(`SELECT ${flag} AS simulated FROM ledger_orders WHERE mall_id = ? AND shop_order_no = ?`, order.mallId, order.shopOrderNo);
    if (!row) continue;
    if (row.simulated) simulatedOrders.push(key);
    else if (order.changed) {
      const open = yield* openDiscrepancies(order.mallId, order.shopOrderNo);
      if (open !== null) realOrders.push(open);
    }
  }
  return { simulatedOrders, realOrders };
}

function* openDiscrepancies(mallId: string, shopOrderNo: string): Procedure<RealOrderDiscrepancies | null> {
  const row = yield* get<StoredRecordRow>(`SELECT ${recordColumns(yield* dialect(), 'o')} FROM ledger_orders o WHERE o.mall_id = ? AND o.shop_order_no = ?`, mallId, shopOrderNo);
  const record: Pick<OrderRecord, 'discrepancies' | 'expected'> | null = row ? storedOrderRecord(row) : null;
  if (record === null) return null;
  const open = record.discrepancies.filter((d) => d.resolvedAt === null);
  if (open.length === 0) return null;
  // Those already told (their alert's key is stored) are no news: nothing to write for them.
  const keys = open.map((d) => `discrepancy:${d.id}`);
  const told = yield* all<{ alert_key: string }>(`SELECT alert_key FROM alerts WHERE alert_key IN (${keys.map(() => '?').join(', ')})`, ...keys);
  const toldKeys = new Set(told.map((row) => row.alert_key));
  const discrepancies = open.filter((d) => !toldKeys.has(`discrepancy:${d.id}`));
  return discrepancies.length === 0 ? null : { mallId, shopOrderNo, currency: record.expected?.currency ?? null, discrepancies };
}
