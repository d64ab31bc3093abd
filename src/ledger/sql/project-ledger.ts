import type { OrderKey } from '../fold/ledger-facts';
import type { LedgerSettings } from '../../config/ledger-settings';
import type { NormalizedEvent } from '../../notifications/normalized-event';
import { conflictFact } from '../fold/conflict-fact';
import { notificationFact } from '../fold/notification-fact';
import { refusalFact } from '../fold/refusal-fact';
import { decodeBody } from '../../notifications/decode-body';
import { orderKeyText } from '../fold/order-key';
import { loadedOrders, loadOrders, type LoadedOrder } from './ledger-orders';
import { recomputeOrders, type OrderFact } from './ledger-writes';
import { queueAfter } from './apply-order-facts';
import { paymentSearchWrites } from './payment-search-rows';
import { failedNotificationSeq, inboxEventFact, keepFailedInput, readInputFact } from './failed-inputs';
import { allRows, changes, dialect, get, oneTrip, type Procedure, type Statement } from '../../store/procedures/procedure';

export interface ProjectedBatch {
  /** Stored rows the batch went past (notifications, the ledger's other inputs, internal entries). */
  rows: number;
  /** Orders computed. */
  orders: number;
  /** Orders the batch left as `ledger_error`, and stored rows it could not read at all. */
  errors: string[];
  /** The batch was full: more may be waiting. */
  more: boolean;
  /**
   * Asked for with tracing on: the stored trace context (the outbox row's, of the POST that
   * stored it) of each gateway notification the batch applied, in seq order; rows stored with
   * tracing off have none and are left out.
   */
  traceContexts?: string[];
  /** How long the batch's write took, from asking the writer to its commit (set by the projector). */
  writeMs?: number;
  /** Computed batches thrown away before this one because the position moved under them. */
  discarded?: number;
}

type Position = Record<'inbox_seq' | 'input_seq' | 'conflict_id' | 'rejection_id', number | string>;
/** Where the projector stood when a batch was computed: its position and the ledger's generation (migration 023). */
export type ReadPosition = Position & { generation: number | string };

/** A computed batch's writes, to be applied only if the projector still stands where it was read. */
export interface BatchWrite {
  from: ReadPosition;
  statements: Statement[];
  events: Statement[];
  position: Statement;
}

/** A batch read and folded (off the writer); `write` is null when there was nothing to apply. */
export interface ComputedBatch {
  batch: ProjectedBatch;
  write: BatchWrite | null;
}
type InboxInput = { seq: number | string; mall_id: string; shop_order_no: string | null; event_json: string; trace_context?: string | null };

const POSITION_COLUMNS = 'inbox_seq, input_seq, conflict_id, rejection_id';
const POSITION_KEYS = ['inbox_seq', 'input_seq', 'conflict_id', 'rejection_id', 'generation'] as const;
const AT = Object.fromEntries(POSITION_COLUMNS.split(', ').map((column) => [column, `SELECT ${column} FROM ledger_projector WHERE id = 1`])) as Record<keyof Position, string>;
/**
 * The gateway's notifications after the position. Internal entries are passed in the index walk,
 * not read: a batch never carries the ledger's events of the batch before back out of the database
 * only to skip them.
 */
const NOTIFICATIONS_AFTER = `SELECT seq, mall_id, shop_order_no, event_json FROM inbox
  WHERE seq > (${AT.inbox_seq}) AND origin = 'gateway' ORDER BY seq LIMIT ?`;
/** The same with each one's stored trace context (tracing on: the batch span's links), its outbox row by its unique inbox_seq. */
const TRACED_NOTIFICATIONS_AFTER = `SELECT i.seq, i.mall_id, i.shop_order_no, i.event_json, o.trace_context FROM inbox i LEFT JOIN outbox o ON o.inbox_seq = i.seq
  WHERE i.seq > (${AT.inbox_seq}) AND i.origin = 'gateway' ORDER BY i.seq LIMIT ?`;
type LedgerInput = { seq: number | string; mall_id: string; shop_order_no: string; fact_json: string };
type ConflictInput = { id: number | string; received_at: string; event_json: string; stored_json: string };
type RejectionInput = { id: number | string; received_at: string; content_type: string | null; raw_body: Buffer | Uint8Array | null; reason: string };

/**
 * One batch of the ledger's projector: the rows stored after its position, in the order
 * they were stored (the inbox's notifications by seq, the other inputs by theirs), at most `limit`
 * of each; every order they touch loaded once and computed once; the facts, the records, the
 * discrepancies, the ledger's events and the new position written in this one transaction, so a
 * crash at any point resumes exactly after the last batch that committed. The outbox-order lock
 * (PostgreSQL) is taken only to queue the events, after the reads, the fold and the records' writes. An input that
 * cannot be applied marks its order `ledger_error` and the batch goes on.
 *
 * Both phases in one transaction, for a one-shot caller; the serving projector runs
 * `computeLedgerBatch` off the writer and sends only `applyLedgerBatch` to it.
 */
export function* projectLedger(limit: number, now: string, settings: LedgerSettings, withTraceContexts = false): Procedure<ProjectedBatch> {
  const { batch, write } = yield* computeLedgerBatch(limit, now, settings, withTraceContexts);
  if (write !== null && !(yield* applyLedgerBatch(write))) throw new Error('the ledger projector moved during its own batch');
  return batch;
}

/**
 * The write phase of a batch computed by `computeLedgerBatch`: a short transaction on the writer.
 * It first reads the position and the generation again; if either moved since the batch was read
 * (another replica's projector, a sweep, a rebuild page), nothing is written and it answers false:
 * the caller computes the batch again from the new position. Else the records, the events and the
 * new position are written together, so a crash at any point resumes after the last batch that
 * committed, and nothing is applied twice.
 */
export function* applyLedgerBatch(write: BatchWrite): Procedure<boolean> {
  const now = yield* get<ReadPosition>(`SELECT ${POSITION_COLUMNS}, generation FROM ledger_projector WHERE id = 1`);
  if (!now || POSITION_KEYS.some((key) => String(now[key]) !== String(write.from[key]))) return false;
  yield* queueAfter(write.statements, write.events, [write.position]);
  return true;
}

/**
 * The read and compute phase of a batch: no write, so it runs on a read connection of its own
 * (SQLite: the projector's thread; PostgreSQL: a snapshot on its own connection), never on the
 * acks' writer. Its position is read first: whatever the later reads see is at least as new.
 */
export function* computeLedgerBatch(limit: number, now: string, settings: LedgerSettings, withTraceContexts = false): Procedure<ComputedBatch> {
  // The position and what follows it in one trip: every read finds the position itself (nothing
  // else moves it while this transaction holds the ledger's write lock, or SQLite's one writer).
  const [positions, inbox, inputs, conflicts, rejections] = (yield* oneTrip(
    // With the inbox's end, read before the notifications (on PostgreSQL an earlier snapshot: every
    // row up to it is seen by the read after it).
    allRows(`SELECT ${POSITION_COLUMNS}, generation, (SELECT MAX(seq) FROM inbox) AS inbox_end FROM ledger_projector WHERE id = 1`),
    allRows(withTraceContexts ? TRACED_NOTIFICATIONS_AFTER : NOTIFICATIONS_AFTER, limit),
    allRows(`SELECT seq, mall_id, shop_order_no, fact_json FROM ledger_inputs WHERE seq > (${AT.input_seq}) ORDER BY seq LIMIT ?`, limit),
    // The stored version by its seq, once per conflict (a join may be planned as a walk of the inbox).
    allRows(`SELECT c.id, c.received_at, c.event_json, (SELECT i.event_json FROM inbox i WHERE i.seq = c.inbox_seq) AS stored_json
      FROM conflicts c WHERE c.id > (${AT.conflict_id}) ORDER BY c.id LIMIT ?`, limit),
    allRows(`SELECT id, received_at, content_type, raw_body, reason FROM rejections WHERE id > (${AT.rejection_id}) ORDER BY id LIMIT ?`, limit),
  )) as [Array<ReadPosition & { inbox_end: number | string | null }>, InboxInput[], LedgerInput[], ConflictInput[], RejectionInput[]];
  const position = positions[0];
  if (!position) throw new Error('the ledger projector has no position row (migration 014)');
  const end = Math.max(Number(position.inbox_end ?? 0), Number(inbox.at(-1)?.seq ?? 0));
  const notifications = inbox;
  const full = [notifications, inputs, conflicts, rejections].some((list) => list.length === limit);
  // Past the internal entries too (the ledger's own events, a command's final state: not the
  // gateway's, never read): up to the last notification when there may be more, else to the end.
  const inboxSeq = notifications.length === limit ? notifications.at(-1)!.seq : Math.max(end, Number(position.inbox_seq));
  const internal = Number(inboxSeq) - Number(position.inbox_seq) - notifications.length;
  const rows = notifications.length + inputs.length + conflicts.length + rejections.length + Math.max(0, internal);
  if (rows === 0) return { batch: { rows: 0, orders: 0, errors: [], more: false }, write: null };

  const traceContexts: string[] = [];
  const facts: OrderFact[] = [];
  const errors: string[] = [];
  const poisoned: Array<{ order: OrderKey; seq: number | string; json: string; error: string }> = [];
  // Each stored event parsed once, for its fact and its search row.
  const parsedEvents: unknown[] = [];
  for (const row of notifications) {
    if (withTraceContexts && row.trace_context) traceContexts.push(row.trace_context);
    let made: ReturnType<typeof inboxEventFact>;
    try {
      const event = JSON.parse(row.event_json) as unknown;
      parsedEvents.push(event);
      made = inboxEventFact(event);
    } catch (error) {
      // Its row still names its order: that order is marked and the event kept until a repair; one
      // that names none is counted and passed. Never a stop for the others.
      if (row.shop_order_no === null) errors.push(`inbox row ${row.seq}: its stored event cannot be read`);
      else poisoned.push({ order: { mallId: row.mall_id, shopOrderNo: row.shop_order_no }, seq: failedNotificationSeq(row.seq), json: row.event_json, error: (error as Error).message });
      continue;
    }
    if (made !== null) facts.push(made);
  }
  for (const row of conflicts) {
    const made = readable(() => conflictOf(row));
    if (made instanceof Error) errors.push(`conflict ${row.id}: ${made.message}`);
    else facts.push(...made);
  }
  for (const row of rejections) {
    const made = readable(() => refusalOf(row));
    // A body that cannot be decoded names no order: the rejection is all there is of it.
    if (!(made instanceof Error) && made !== null) facts.push(made);
  }
  for (const row of inputs) {
    const order = { mallId: row.mall_id, shopOrderNo: row.shop_order_no };
    try {
      facts.push({ order, fact: readInputFact(row.fact_json), json: row.fact_json });
    } catch (error) {
      poisoned.push({ order, seq: row.seq, json: row.fact_json, error: (error as Error).message });
    }
  }

  // As first stored: a new order's row (its order_id, the lists' order) and the events come in the
  // order the inputs were stored, as they did when the ledger ran in the acks' transactions.
  const orders = firstSeen([...facts.map((f) => f.order), ...poisoned.map((p) => p.order)]);
  const sql = yield* dialect();
  const loaded: Map<string, LoadedOrder> = orders.length > 0 ? loadedOrders(orders, yield* oneTrip(...loadOrders(orders, sql, { replay: false, newFacts: facts, settings }))) : new Map();
  // Kept, not passed: the order stays ledger_error through its later inputs until the input is applied.
  for (const { order, seq, json, error } of poisoned) loaded.get(orderKeyText(order))!.failedInputs.push({ seq: Number(seq), factJson: json, error });
  const kept = poisoned.map(({ order, seq, error }) => keepFailedInput(seq, order, error, now));
  // As of the latest input of the batch, as the ack computed it when the ledger rode on it: a batch
  // computed again after a crash gives the same records, and so the same event ids. The grace
  // periods that pass later are the sweep's, on the clock.
  const asOf = facts.reduce((latest, f) => (f.fact.recordedAt > latest ? f.fact.recordedAt : latest), '') || now;
  const { statements, results, events } = recomputeOrders(loaded, facts, { now: asOf, settings }, sql);
  statements.unshift(...kept);
  // The console search's rows of the notifications read (migration 021), in this same transaction.
  statements.push(...paymentSearchWrites(parsedEvents, sql));
  for (const result of results) if (result.error !== null) errors.push(`${result.order.mallId}/${result.order.shopOrderNo}: ${result.error}`);

  const inputSeq = inputs.at(-1)?.seq ?? position.input_seq;
  const conflictId = conflicts.at(-1)?.id ?? position.conflict_id;
  const rejectionId = rejections.at(-1)?.id ?? position.rejection_id;
  const from: ReadPosition = { inbox_seq: position.inbox_seq, input_seq: position.input_seq, conflict_id: position.conflict_id, rejection_id: position.rejection_id, generation: position.generation };
  const write: BatchWrite = {
    from,
    statements,
    events,
    position: changes('UPDATE ledger_projector SET inbox_seq = ?, input_seq = ?, conflict_id = ?, rejection_id = ?, projected_at = ?, generation = generation + 1 WHERE id = 1',
      inboxSeq, inputSeq, conflictId, rejectionId, Date.parse(now)),
  };
  return { batch: { rows, orders: orders.length, errors, more: full, ...(withTraceContexts ? { traceContexts } : {}) }, write };
}

function firstSeen(orders: readonly OrderKey[]): OrderKey[] {
  const byKey = new Map<string, OrderKey>();
  for (const order of orders) if (!byKey.has(orderKeyText(order))) byKey.set(orderKeyText(order), order);
  return [...byKey.values()];
}

function readable<T>(make: () => T): T | Error {
  try {
    return make();
  } catch (error) {
    return error as Error;
  }
}

/** A conflicting redelivery's fact, for each order it names, when its money fields or its order differ from the stored notification's. */
function conflictOf(row: ConflictInput): OrderFact[] {
  const stored = notificationFact(JSON.parse(row.stored_json) as NormalizedEvent);
  const redelivered = notificationFact(JSON.parse(row.event_json) as NormalizedEvent);
  if (stored === null || redelivered === null) return [];
  const made = conflictFact(stored, redelivered, row.received_at);
  return made === null ? [] : made.orders.map((order) => ({ order, fact: made.fact }));
}

const NOT_OUR_MALL = /is not one of MALL_IDS/;

/** A refused notification's fact, when its stored body names an order of a mall served here. */
function refusalOf(row: RejectionInput): OrderFact | null {
  // A mall this service does not serve (refused for MALL_IDS) has no orders here.
  if (row.raw_body === null || NOT_OUR_MALL.test(row.reason)) return null;
  const made = refusalFact(decodeBody(Buffer.from(row.raw_body), row.content_type ?? undefined), Number(row.id), row.received_at);
  return made === null ? null : { order: made.order, fact: made.fact };
}
