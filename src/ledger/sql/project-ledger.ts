import type { LedgerSettings } from '../../config/ledger-settings';
import { orderKeyText } from '../fold/order-key';
import { batchFacts, batchTime, type StoredInput, type StoredNotification } from '../projection/batch-facts';
import type { StoredConflict, StoredRejection } from '../projection/input-facts';
import { firstSeen, type LoadedOrder, type OrderFact } from '../projection/loaded-order';
import { projectOrders } from '../projection/project-orders';
import { loadGoingOn, readFactsOf } from './ledger-orders';
import { lateListings, notifiedSpans, unplacedLookups, type LateListings } from '../projection/late-listings';
import { listCoverage } from './list-coverage';
import { placementWrites, unplacedRows } from './unplaced-rows';
import { changeStatements } from './ledger-writes';
import { queueAfter } from './apply-order-facts';
import { paymentSearchWrites } from './payment-search-rows';
import { keepFailedInput } from './failed-inputs';
import { allRows, changes, dialect, foldCache, get, oneTrip, type Procedure, type Statement } from '../../store/procedures/procedure';

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
 * The listing facts of the imported transaction lists that cover the days of the batch's
 * notifications, for the orders that lack their day's or whose notified pgCnos name rows the
 * import could place in no order (`lateListings`): stored with the batch's other facts, so
 * `ledger rebuild` replays them, and the rows placed written with them. The facts of an order that
 * went on from a kept state are read first: only they say whether it holds one.
 */
function* lateListingFacts(loaded: Map<string, LoadedOrder>, facts: readonly OrderFact[]): Procedure<Omit<LateListings, 'unread'>> {
  const imports = yield* listCoverage(notifiedSpans(facts));
  if (imports.length === 0) return { facts: [], placed: [] };
  const unplaced = yield* unplacedRows(unplacedLookups(facts, imports));
  const first = lateListings(loaded, facts, imports, unplaced);
  if (first.unread.length === 0) return first;
  yield* readFactsOf(loaded, first.unread);
  return lateListings(loaded, facts, imports, unplaced);
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
  )) as [Array<ReadPosition & { inbox_end: number | string | null }>, StoredNotification[], StoredInput[], StoredConflict[], StoredRejection[]];
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

  const read = batchFacts({ notifications, inputs, conflicts, rejections });
  const { facts, unread } = read;
  const errors = [...read.errors];
  const orders = firstSeen([...facts.map((f) => f.order), ...unread.map((p) => p.order)]);
  const sql = yield* dialect();
  const cache = yield* foldCache();
  const loaded: Map<string, LoadedOrder> = yield* loadGoingOn(orders, facts, settings, cache);
  // Kept, not passed: the order stays ledger_error through its later inputs until the input is applied.
  for (const { order, seq, json, error } of unread) loaded.get(orderKeyText(order))!.failedInputs.push({ seq, factJson: json, error });
  const asOf = batchTime(facts, now);
  const listed = yield* lateListingFacts(loaded, facts);
  const projected = projectOrders(loaded, [...facts, ...listed.facts], { now: asOf, settings }, cache);
  const { statements, events } = changeStatements(projected, asOf, sql);
  statements.push(...placementWrites(listed.placed));
  statements.unshift(...unread.map(({ order, seq, error }) => keepFailedInput(seq, order, error, now)));
  // The console search's rows of the notifications read (migration 021), in this same transaction.
  statements.push(...paymentSearchWrites(read.events, sql));
  for (const result of projected.results) if (result.error !== null) errors.push(`${result.order.mallId}/${result.order.shopOrderNo}: ${result.error}`);

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
  return { batch: { rows, orders: orders.length, errors, more: full, ...(withTraceContexts ? { traceContexts: read.traceContexts } : {}) }, write };
}
