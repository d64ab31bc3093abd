import type { FoldCheckpoint } from '../fold/discrepancy-lifecycle';
import type { LedgerEvent } from '../fold/ledger-events';
import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import type { LedgerSettings } from '../../config/ledger-settings';
import type { Discrepancy, OrderRecord } from '../fold/order-record';
import { sha256Hex } from '../../sha256-hex';
import { forgetFailedInput, readFailedInput } from './failed-inputs';
import { checkpointRow, checkpointWrites, computeLoadedOrder, usableCheckpoint } from './fold-checkpoints';
import { inInputOrder, inputEvents, type TimedEvent } from './input-events';
import { keep } from './kept-checkpoints';
import { orderKeyText, storedRecord, type LoadedOrder } from './ledger-orders';
import { notificationTimes, summaryChange, summaryWrites, type SummaryChange } from './summary/summary-writes';
import { jsonRows, type JsonRows } from '../../store/procedures/json-rows';
import { changes, chunks, columnArrays, ladderChunks, ladderRowInserts, placeholders, sqlBySize, valueRows, type Dialect, type Param, type Statement } from '../../store/procedures/procedure';

/** A fact to store for an order. */
export interface OrderFact {
  order: OrderKey;
  fact: LedgerFact;
  /** The fact as JSON when the caller has it already (a notification's, made on the main thread). */
  json?: string;
}

export interface LedgerOptions {
  /** The time of the computation (ISO): only decides whether a grace period has passed. */
  now: string;
  settings: LedgerSettings;
}

export interface Recomputed {
  order: OrderKey;
  record: OrderRecord | null;
  /** The record or its sweep time differ from what was stored. */
  changed: boolean;
  /** Why the ledger could not apply the order's inputs (its record is then a `ledger_error`), else null. */
  error: string | null;
  /** The own times of the order's notifications (what the day page lists it by), read when asked. */
  eventTimes: () => string[];
}

const FACT_COLUMNS = 6;
// A fact is keyed by its order's order_id (migration 010), found by the order's key: the order's row
// exists by then (written before the facts when new).
const INSERT_FACTS = sqlBySize((rows) => `INSERT INTO ledger_facts (order_id, id, kind, recorded_at, fact_json)
  VALUES ${Array.from({ length: rows }, () => '((SELECT order_id FROM ledger_orders WHERE mall_id = ? AND shop_order_no = ?), ?, ?, ?, ?)').join(', ')}
  ON CONFLICT DO NOTHING`);
const ORDER_COLUMNS = 6;
const UPSERT_ORDERS = sqlBySize((rows) => `INSERT INTO ledger_orders (mall_id, shop_order_no, status, record_json, sweep_at, updated_at)
  VALUES ${valueRows(rows, ORDER_COLUMNS)}
  ON CONFLICT (mall_id, shop_order_no) DO UPDATE SET status = excluded.status, record_json = excluded.record_json,
    sweep_at = excluded.sweep_at, updated_at = excluded.updated_at`);
const DISCREPANCY_COLUMNS = 9;
const UPSERT_DISCREPANCIES = sqlBySize((rows) => `INSERT INTO ledger_discrepancies (id, mall_id, shop_order_no, kind, opened_at,
    resolved_at, resolved_by, note, discrepancy_json)
  VALUES ${valueRows(rows, DISCREPANCY_COLUMNS)}
  ON CONFLICT (id) DO UPDATE SET opened_at = excluded.opened_at, resolved_at = excluded.resolved_at,
    resolved_by = excluded.resolved_by, note = excluded.note, discrepancy_json = excluded.discrepancy_json`);
const DELETE_DISCREPANCIES = sqlBySize((rows) => `DELETE FROM ledger_discrepancies WHERE id IN (${placeholders(rows)})`);
const EVENT_COLUMNS = 9;
// An event for the internal queue is an internal inbox entry beside the notifications (as a
// command's final state is): the relay forwards every outbox row the same way. 'ledger:' + its id
// is its dedup key, so a transaction computed again (a retry after a failed batch) queues it once.
const EVENT_VALUES = (rows: number) => `INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno,
    shop_order_no, body_hash, raw_body, content_type, source_ip, received_at, event_json)
  VALUES ${Array.from({ length: rows }, () => "(?, ?, '', ?, ?, ?, NULL, ?, ?, 'application/json', 'internal', ?, ?)").join(', ')}
  ON CONFLICT DO NOTHING`;
const INSERT_EVENTS = sqlBySize(EVENT_VALUES);
// SQLite: each event's outbox row found by both columns of its unique inbox key (pg_cno, event_id).
const QUEUE_EVENTS = sqlBySize((rows) => `INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms)
  SELECT seq, event_id, received_at, CAST(? AS BIGINT) FROM inbox
  WHERE ${Array.from({ length: rows }, () => '(pg_cno = ? AND event_id = ?)').join(' OR ')}
  ORDER BY seq ON CONFLICT DO NOTHING`);

// PostgreSQL: each multi-row write as one fixed text over one JSON parameter of its rows (see
// `jsonRows`): prepared once per connection, whatever the batch's size. A VALUES list of 1,000
// facts, each finding its order_id in a subquery of its own, took PostgreSQL about 0.3 s to plan
// and run per projector batch; the same rows from one parameter, each order found by its unique key
// (LATERAL, so no plan hashes the table), take a few ms. Rows keep their order (ORDINALITY): a new
// order's order_id is drawn in it.
const PG_ORDERS = jsonRows([['mall_id', 'text'], ['shop_order_no', 'text'], ['status', 'text'], ['record_json', 'text'], ['sweep_at', 'bigint'], ['updated_at', 'text']]);
const PG_UPSERT_ORDERS = `INSERT INTO ledger_orders (mall_id, shop_order_no, status, record_json, sweep_at, updated_at)
  SELECT r.mall_id, r.shop_order_no, r.status, r.record_json, r.sweep_at, r.updated_at
  FROM ${PG_ORDERS.from} AS r
  ORDER BY r.n
  ON CONFLICT (mall_id, shop_order_no) DO UPDATE SET status = excluded.status, record_json = excluded.record_json,
    sweep_at = excluded.sweep_at, updated_at = excluded.updated_at`;
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
// The events still bind one array per column (`columnArrays`); an event's seq is drawn in row order.
const PG_INSERT_AND_QUEUE_EVENTS = `WITH e AS (INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno,
    shop_order_no, body_hash, raw_body, content_type, source_ip, received_at, event_json)
  SELECT v.event_id, v.dedup_key, '', v.event_type, v.mall_id, v.pg_cno, NULL, v.body_hash, v.raw_body, 'application/json', 'internal',
    v.received_at, v.event_json
  FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bytea[], ?::text[], ?::text[]) WITH ORDINALITY
    AS v (event_id, dedup_key, event_type, mall_id, pg_cno, body_hash, raw_body, received_at, event_json, n)
  ORDER BY v.n
  ON CONFLICT DO NOTHING RETURNING seq, event_id, received_at)
  INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms)
  SELECT seq, event_id, received_at, CAST(? AS BIGINT) FROM e ORDER BY seq`;

/** The multi-row writes of the ledger's tables, as the dialect takes them best. */
function tableWrites(orderRows: Param[][], factRows: Param[][], discrepancyRows: Param[][], gone: string[], dialect: Dialect): Statement[] {
  if (dialect === 'postgres') {
    const each = (sql: string, json: JsonRows, rows: Param[][]) => (rows.length === 0 ? [] : [changes(sql, json.rowsParam(rows))]);
    return [
      ...each(PG_UPSERT_ORDERS, PG_ORDERS, orderRows),
      ...each(PG_INSERT_FACTS, PG_FACTS, factRows),
      ...each(PG_UPSERT_DISCREPANCIES, PG_DISCREPANCIES, discrepancyRows),
      ...(gone.length === 0 ? [] : [changes(PG_DELETE_DISCREPANCIES, gone)]),
    ];
  }
  return [
    ...ladderRowInserts(UPSERT_ORDERS, ORDER_COLUMNS, orderRows),
    ...ladderRowInserts(INSERT_FACTS, FACT_COLUMNS, factRows),
    ...ladderRowInserts(UPSERT_DISCREPANCIES, DISCREPANCY_COLUMNS, discrepancyRows),
    ...chunks(gone, 1).map((ids) => changes(DELETE_DISCREPANCIES(ids.length), ...ids)),
  ];
}

/**
 * Each loaded order recomputed with its new facts, and the statements that store the
 * facts, the records, their discrepancy rows and the events `ledgerEvents` says the change must
 * send. A fact already stored adds nothing; an order whose record comes out the same writes
 * nothing. `statements` write the ledger's own tables; `events` queue the events (the caller
 * yields `outboxChanged()` between the two when there are any, so that on PostgreSQL the lock that
 * orders the outbox is held only while the events draw their positions, not while the records are
 * written).
 */
export function recomputeOrders(
  loaded: ReadonlyMap<string, LoadedOrder>,
  newFacts: readonly OrderFact[],
  options: LedgerOptions,
  dialect: Dialect,
): { statements: Statement[]; results: Recomputed[]; events: Statement[] } {
  const factRows: Param[][] = [];
  const added = new Map<string, LedgerFact[]>();
  const { retried, applied } = retryFailedInputs(loaded);
  // Each order's checkpoint read once: it knows the order's facts when they were not read.
  const checkpoints = new Map<string, FoldCheckpoint | null>();
  const known = new Map<string, (id: string) => boolean>();
  for (const [key, entry] of loaded) {
    const checkpoint = usableCheckpoint(entry, options.settings);
    checkpoints.set(key, checkpoint);
    const ids = new Set(entry.facts.map((f) => f.id));
    known.set(key, entry.factsRead || checkpoint === null ? (id) => ids.has(id) : (id) => checkpointHolds(checkpoint, id));
  }
  for (const { order, fact, json } of [...newFacts, ...retried]) {
    const key = orderKeyText(order);
    const entry = loaded.get(key);
    if (!entry) throw new Error(`the ledger computes an order it has not read: ${key}`);
    const mine = added.get(key) ?? [];
    if (known.get(key)!(fact.id) || mine.some((f) => f.id === fact.id)) continue;
    mine.push(fact);
    added.set(key, mine);
    factRows.push([order.mallId, order.shopOrderNo, fact.id, fact.kind, fact.recordedAt, json ?? JSON.stringify(fact)]);
  }
  const orderRows: Param[][] = [];
  const discrepancyRows: Param[][] = [];
  const gone: string[] = [];
  const timedEvents: TimedEvent[] = [];
  const checkpointRows: Param[][] = [];
  const forgotten: OrderKey[] = [];
  const results: Recomputed[] = [];
  const summary: SummaryChange[] = [];
  for (const [key, entry] of loaded) {
    const stored = storedRecord(entry);
    const checkpoint = checkpoints.get(key) ?? null;
    const computed = computeLoadedOrder(entry, checkpoint, added.get(key) ?? [], stored, options);
    const { record, sweepAt, error } = computed;
    const sweepMs = sweepAt === null ? null : Date.parse(sweepAt);
    const json = record === null ? null : JSON.stringify(record);
    const changed = json !== entry.storedJson || sweepMs !== entry.sweepAt;
    const eventTimes = () => notificationTimes(notificationsOf(entry, checkpoint, added.get(key)));
    results.push({ order: entry.order, record, changed, error, eventTimes });
    // The order's row holds its checkpoint's order_id: a checkpoint is kept only beside a row.
    const hasRow = entry.exists || changed || added.has(key);
    if (computed.checkpoint === 'forget') {
      if (entry.checkpoint !== null) forgotten.push(entry.order);
    } else if (computed.checkpoint !== null && hasRow) checkpointRows.push(checkpointRow(entry.order, computed.checkpoint, options.settings));
    // Read and not moved (a sweep, a redelivery): kept again with the text the store still holds.
    else if (computed.checkpoint === null && checkpoint !== null) keep(entry.order, entry.checkpoint!.json, checkpoint);
    const announce = () => {
      if (record === null || json === null) return;
      const pgCno = eventPgCno(record, () => notificationsOf(entry, checkpoint, added.get(key)));
      inputEvents(stored, computed, record, json, (event) => eventRow(event, record.mallId, pgCno, options.now), timedEvents);
    };
    // A new order's facts need its row (their order_id), whatever the record says.
    if (!changed && (entry.exists || !added.has(key))) {
      // Inputs that moved the order and moved it back still each told their change.
      if (computed.steps.length > 0) announce();
      continue;
    }
    orderRows.push([entry.order.mallId, entry.order.shopOrderNo, record?.status ?? null, json, sweepMs, record?.updatedAt ?? null]);
    // The day's money follows every record written (src/ledger/summary/).
    if (record !== null) summary.push(summaryChange(entry.order, record, stored, eventTimes()));
    // A ledger_error keeps the discrepancy rows as they were: only its status says what happened.
    if (error === null) {
      discrepancyRows.push(...changedDiscrepancies(entry.order, stored, record));
      gone.push(...vanished(stored, record));
    }
    announce();
  }
  const statements = [
    ...tableWrites(orderRows, factRows, discrepancyRows, gone, dialect),
    ...checkpointWrites(checkpointRows, forgotten, dialect),
    ...summaryWrites(summary, dialect),
    ...applied.map(forgetFailedInput),
  ];
  return { statements, results, events: eventStatements(inInputOrder(timedEvents), Date.parse(options.now), dialect) };
}

/** Whether the checkpoint holds a fact of this id (an input or a resolution). */
function checkpointHolds(checkpoint: FoldCheckpoint, id: string): boolean {
  const { state } = checkpoint;
  return state.notifications.has(id) || checkpoint.resolutions.has(id) || state.expectations.has(id) || state.cancellations.has(id)
    || state.conflicts.has(id) || state.refusals.has(id);
}

/** The order's facts as far as the filing of its events goes: read, or held by its checkpoint, and the new ones. */
function notificationsOf(entry: LoadedOrder, checkpoint: FoldCheckpoint | null, added: readonly LedgerFact[] = []): LedgerFact[] {
  const held = entry.factsRead || checkpoint === null ? entry.facts : [...checkpoint.state.notifications.values()].map((e) => e.fact);
  return [...held, ...added];
}

/**
 * The orders' kept inputs that now read as facts (a repair corrected them): new facts to apply, and
 * their seqs, whose rows go. One that still fails marks its order `ledger_error` again: the mark
 * stays through the order's later inputs until the input is applied, never cleared by them.
 */
function retryFailedInputs(loaded: ReadonlyMap<string, LoadedOrder>): { retried: OrderFact[]; applied: number[] } {
  const retried: OrderFact[] = [];
  const applied: number[] = [];
  for (const entry of loaded.values()) {
    for (const input of entry.failedInputs) {
      try {
        const made = readFailedInput(input);
        if (made !== null) retried.push({ order: entry.order, ...made });
        applied.push(input.seq);
      } catch (error) {
        entry.loadError ??= `${input.seq > 0 ? `ledger input ${input.seq}` : `stored notification (inbox row ${-input.seq})`} cannot be read (${(error as Error).message}); it is kept, and the order marked, until it is repaired and \`ledger rebuild\` applies it`;
      }
    }
  }
  return { retried, applied };
}

function changedDiscrepancies(order: OrderKey, stored: OrderRecord | null, record: OrderRecord | null): Param[][] {
  const before = new Map((stored?.discrepancies ?? []).map((d) => [d.id, JSON.stringify(d)]));
  return (record?.discrepancies ?? [])
    .filter((d) => before.get(d.id) !== JSON.stringify(d))
    .map((d: Discrepancy) => [d.id, order.mallId, order.shopOrderNo, d.kind, d.openedAt, d.resolvedAt, d.resolvedBy, d.note, JSON.stringify(d)]);
}

/** Discrepancies a record no longer has (the settings changed before a rebuild): their rows go too. */
function vanished(stored: OrderRecord | null, record: OrderRecord | null): string[] {
  const now = new Set((record?.discrepancies ?? []).map((d) => d.id));
  return (stored?.discrepancies ?? []).map((d) => d.id).filter((id) => !now.has(id));
}

/**
 * The pgCno a ledger event of the order is filed under: its latest payment's (or deposit's), else
 * the highest any of its notifications names (a cancel's or refund's pgCno is its payment's), ''
 * when none does. The operator's search by pgCno finds the event beside the notifications, and
 * SQLite's unique inbox key (pg_cno, event_id) takes its entry on the leaf of the notification
 * being acked instead of a random place among the other events' ('' and a hash-like id): issue 21
 * measured that as about 20 of the 148 WAL pages an ack's commit of 32 wrote. Computed from the
 * order's facts alone, as its record is: a retried transaction, the backfill and a rebuild that
 * send an event from the same facts file it under the same key, and the ON CONFLICT keeps one.
 */
function eventPgCno(record: OrderRecord, factsOf: () => readonly LedgerFact[]): string {
  const paid = record.payments.at(-1)?.pgCno ?? record.deposits.at(-1)?.pgCno;
  if (paid !== undefined) return paid;
  let highest = '';
  for (const fact of factsOf()) if (fact.kind === 'notification' && fact.pgCno > highest) highest = fact.pgCno;
  return highest;
}

/**
 * The inbox columns of a ledger event. No shop_order_no: a search by order number lists the
 * gateway's notifications, the ledger's view of the order is its record, and the ack's commit
 * writes one index page fewer.
 */
function eventRow(event: LedgerEvent, mallId: string, pgCno: string, now: string): Param[] {
  const json = JSON.stringify(event);
  return [event.id, `ledger:${event.id}`, event.type, mallId, pgCno, sha256Hex(json), Buffer.from(json, 'utf8'), now, json];
}

/** The events' inbox rows and their outbox rows, in the order given (their seqs are drawn in it). */
function eventStatements(rows: readonly Param[][], nowMs: number, dialect: Dialect): Statement[] {
  if (dialect === 'postgres') {
    // The inbox's columns in the order of `eventRow`, which the arrays follow.
    return rows.length === 0 ? [] : [changes(PG_INSERT_AND_QUEUE_EVENTS, ...columnArrays(rows, EVENT_COLUMNS), nowMs)];
  }
  return [
    ...ladderRowInserts(INSERT_EVENTS, EVENT_COLUMNS, rows),
    ...ladderChunks(rows, 2, 256).map((chunk) => changes(QUEUE_EVENTS(chunk.length), nowMs, ...chunk.flatMap((row) => [row[4]!, row[0]!]))),
  ];
}
