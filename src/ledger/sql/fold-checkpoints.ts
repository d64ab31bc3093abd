import { foldNewFacts, replayToCheckpoint, type FoldedComputation, type LedgerComputation } from '../fold/compute-order-record';
import type { FoldCheckpoint } from '../fold/discrepancy-lifecycle';
import { foldSettingsKey, restoredFold, storedFold } from '../fold/fold-state';
import { ledgerErrorRecord } from '../fold/ledger-error-record';
import { epochMs } from '../fold/ledger-time';
import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import type { LedgerSettings } from '../../config/ledger-settings';
import type { OrderRecord } from '../fold/order-record';
import { keep, takeKept } from './kept-checkpoints';
import type { LoadedOrder } from './ledger-orders';
import { jsonRows } from '../../store/procedures/json-rows';
import { changes, ladderRowInserts, sqlBySize, type Dialect, type Param, type Statement } from '../../store/procedures/procedure';

export interface OrderComputation extends LedgerComputation {
  /** Why the ledger could not apply the order's inputs (its record is then a `ledger_error`), else null. */
  error: string | null;
  /** The checkpoint to store, when the computation moved it; `forget` when the order has none that holds (a `ledger_error`). */
  checkpoint: FoldCheckpoint | 'forget' | null;
  /**
   * The order's record after each of its new inputs before the last, in the order they were stored,
   * with the stored time (epoch ms) of each and of the last (`lastMs`, null without new inputs):
   * what the events announce, and when.
   */
  steps: Array<{ record: OrderRecord; ms: number }>;
  lastMs: number | null;
}

/**
 * Orders of fewer facts are replayed at each input, as before checkpoints: their replay (tens of
 * µs) costs less than reading, parsing, writing and logging a checkpoint that repeats their facts
 * (measured: +25% bytes and CPU per notification on the projector bench, whose orders hold one to
 * three notifications). From 20 facts a replay costs several times the checkpoint's round trip.
 */
const CHECKPOINT_FROM_FACTS = 8;

const factCount = ({ state, resolutions }: FoldCheckpoint): number =>
  state.expectations.size + state.notifications.size + state.cancellations.size + state.conflicts.size + state.refusals.size + resolutions.size;

/**
 * The checkpoint an order's computation goes on from: stored, readable, of these settings; else
 * null (the order is replayed). The one this thread kept when it wrote that very text, else the text read.
 */
export function usableCheckpoint(entry: LoadedOrder, settings: LedgerSettings): FoldCheckpoint | null {
  if (entry.checkpoint === null || entry.checkpoint.settings !== foldSettingsKey(settings)) return null;
  const kept = takeKept(entry.order, entry.checkpoint.json);
  if (kept !== null) return kept;
  try {
    return restoredFold(entry.checkpoint.json);
  } catch {
    // A checkpoint that does not read is only a shortcut: the facts are the truth.
    return null;
  }
}

/**
 * The order computed: from its checkpoint and its new facts when they all come after the
 * checkpoint's last moment, else replayed from its facts (which the load read for exactly those
 * orders). When it cannot be computed (a fact that would not load, a throw in the fold), its
 * `ledger_error` record: one order's defect never stops the others, and its checkpoint goes, so
 * that the order is replayed from its facts once it can be computed again.
 */
export function computeLoadedOrder(
  entry: LoadedOrder,
  checkpoint: FoldCheckpoint | null,
  added: readonly LedgerFact[],
  stored: OrderRecord | null,
  options: { now: string; settings: LedgerSettings },
): OrderComputation {
  let error = entry.loadError;
  if (error === null) {
    try {
      return foldInputByInput(entry, checkpoint, added, options);
    } catch (thrown) {
      error = `the ledger could not apply the order's inputs: ${(thrown as Error).message}`;
    }
  }
  return { record: ledgerErrorRecord(entry.order, stored, error, options.now), sweepAt: null, error, checkpoint: 'forget', steps: [], lastMs: null };
}

/**
 * The new facts applied one stored moment at a time (the facts of one millisecond are one moment,
 * as the replay reads them), the record after each kept as a step: a consumer hears every change
 * an input made, whichever inputs a batch happened to hold. Each step's record is what the order
 * reads once its inputs up to then are applied, so a batch computed again computes the same steps
 * (and the same event ids). A step is read as of its own moment; the last as of the batch's time.
 * The checkpoint goes through every moment in turn, which is the replay's own path: the final
 * record is the one the whole batch applied at once would give.
 */
function foldInputByInput(entry: LoadedOrder, checkpoint: FoldCheckpoint | null, added: readonly LedgerFact[], options: { now: string; settings: LedgerSettings }): OrderComputation {
  const moments = storedMoments(added);
  const steps: Array<{ record: OrderRecord; ms: number }> = [];
  const applied: LedgerFact[] = [];
  let current = checkpoint;
  let replayed = false;
  let folded: FoldedComputation | null = null;
  for (const [i, moment] of moments.entries()) {
    const last = i === moments.length - 1;
    const stepOptions = last ? options : { ...options, now: moment[0]!.recordedAt };
    applied.push(...moment);
    folded = current === null ? null : foldNewFacts(entry.order, current, moment, stepOptions);
    if (folded === null) {
      if (!entry.factsRead) throw new Error('its stored fold checkpoint does not read; it is dropped, and the order is replayed from its facts at its next input or by `ledger rebuild`');
      folded = replayToCheckpoint(entry.order, [...entry.facts, ...applied], stepOptions);
      replayed = true;
    }
    current = folded.checkpoint;
    if (!last && folded.record !== null) steps.push({ record: folded.record, ms: momentMs(moment) });
  }
  const result = folded!;
  const lastMs = added.length === 0 ? null : momentMs(moments[moments.length - 1]!);
  if (!replayed) return { record: result.record, sweepAt: result.sweepAt, error: null, checkpoint: added.length > 0 ? result.checkpoint : null, steps, lastMs };
  // One stored is always kept up: a checkpoint left behind its order's facts would be gone on from.
  const keepIt = entry.checkpoint !== null || factCount(result.checkpoint) >= CHECKPOINT_FROM_FACTS;
  return { record: result.record, sweepAt: result.sweepAt, error: null, checkpoint: keepIt ? result.checkpoint : null, steps, lastMs };
}

const momentMs = (moment: readonly LedgerFact[]): number => epochMs(`${moment[0]!.kind}.recordedAt`, moment[0]!.recordedAt);

/** The new facts grouped by the millisecond they were stored in, in that order; one empty moment when there are none (a sweep, a rebuild). */
function storedMoments(facts: readonly LedgerFact[]): LedgerFact[][] {
  if (facts.length <= 1) return [[...facts]];
  const byMs = new Map<number, LedgerFact[]>();
  for (const fact of facts) {
    const ms = epochMs(`${fact.kind}.recordedAt`, fact.recordedAt);
    byMs.set(ms, [...(byMs.get(ms) ?? []), fact]);
  }
  return [...byMs.entries()].sort(([a], [b]) => a - b).map(([, moment]) => moment);
}

const CHECKPOINT_COLUMNS = 5;
// After the orders' rows (a new order's order_id is found by its key, as its facts find it).
const UPSERT_CHECKPOINTS = sqlBySize((rows) => `INSERT INTO ledger_fold_states (order_id, settings, last_moment, state_json)
  VALUES ${Array.from({ length: rows }, () => '((SELECT order_id FROM ledger_orders WHERE mall_id = ? AND shop_order_no = ?), ?, ?, ?)').join(', ')}
  ON CONFLICT (order_id) DO UPDATE SET settings = excluded.settings, last_moment = excluded.last_moment, state_json = excluded.state_json`);
const PG_CHECKPOINTS = jsonRows([['mall_id', 'text'], ['shop_order_no', 'text'], ['settings', 'text'], ['last_moment', 'bigint'], ['state_json', 'text']]);
const PG_UPSERT_CHECKPOINTS = `INSERT INTO ledger_fold_states (order_id, settings, last_moment, state_json)
  SELECT o.order_id, c.settings, c.last_moment, c.state_json
  FROM ${PG_CHECKPOINTS.from} AS c
  CROSS JOIN LATERAL (SELECT order_id FROM ledger_orders WHERE mall_id = c.mall_id AND shop_order_no = c.shop_order_no OFFSET 0) o
  ON CONFLICT (order_id) DO UPDATE SET settings = excluded.settings, last_moment = excluded.last_moment, state_json = excluded.state_json`;
// Rare (an order left ledger_error): one statement each.
const FORGET_CHECKPOINT = 'DELETE FROM ledger_fold_states WHERE order_id = (SELECT order_id FROM ledger_orders WHERE mall_id = ? AND shop_order_no = ?)';

/** A checkpoint's row (the order's key first, for the order_id); the checkpoint is kept in memory with its text (`kept-checkpoints.ts`). */
export function checkpointRow(order: OrderKey, checkpoint: FoldCheckpoint, settings: LedgerSettings): Param[] {
  const json = storedFold(checkpoint);
  keep(order, json, checkpoint);
  return [order.mallId, order.shopOrderNo, foldSettingsKey(settings), checkpoint.lastMoment, json];
}

/** The checkpoints' writes: the moved ones stored, the forgotten ones' rows deleted. */
export function checkpointWrites(rows: readonly Param[][], forgotten: readonly OrderKey[], dialect: Dialect): Statement[] {
  const upserts = dialect === 'postgres'
    ? (rows.length === 0 ? [] : [changes(PG_UPSERT_CHECKPOINTS, PG_CHECKPOINTS.rowsParam(rows))])
    : ladderRowInserts(UPSERT_CHECKPOINTS, CHECKPOINT_COLUMNS, rows);
  return [...upserts, ...forgotten.map((order) => changes(FORGET_CHECKPOINT, order.mallId, order.shopOrderNo))];
}
