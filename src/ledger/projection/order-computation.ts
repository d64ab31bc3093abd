import { foldNewFacts, replayToCheckpoint, type FoldedComputation, type LedgerComputation } from '../fold/compute-order-record';
import type { FoldCheckpoint } from '../fold/discrepancy-lifecycle';
import { foldSettingsKey } from '../fold/fold-state';
import { ledgerErrorRecord } from '../fold/ledger-error-record';
import { epochMs } from '../fold/ledger-time';
import type { LedgerFact } from '../fold/ledger-facts';
import type { LedgerSettings } from '../../config/ledger-settings';
import type { OrderRecord } from '../fold/order-record';
import { factCount, type FoldCache } from './fold-cache';
import type { LoadedOrder } from './loaded-order';

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
 * Orders of fewer facts are replayed at each input: their replay costs less than a position
 * written at each batch and a state kept in the projector's memory for them.
 */
const CHECKPOINT_FROM_FACTS = 8;

/**
 * The state an order's computation goes on from: the one the projector's cache kept under the
 * token the store holds, of these settings; else null (the order is replayed from its facts).
 */
export function usableCheckpoint(entry: LoadedOrder, settings: LedgerSettings, cache: FoldCache | null): FoldCheckpoint | null {
  const position = entry.foldPosition;
  if (position === null || position.settings !== foldSettingsKey(settings)) return null;
  return cache?.take(entry.order, position.version) ?? null;
}

/**
 * Whether a batch must read the order's facts: its fold can go on only from a state the cache kept
 * under the stored token, of these settings, whose last moment is before the batch's earliest new
 * input (an input stored at or before it, another replica's clock, goes before its last moment).
 * A new order has no facts to read.
 */
export function needsFacts(entry: LoadedOrder, earliestNewMs: number, settings: LedgerSettings, cache: FoldCache | null): boolean {
  if (!entry.exists) return false;
  const position = entry.foldPosition;
  if (position === null || position.settings !== foldSettingsKey(settings) || cache === null || !cache.holds(entry.order, position.version)) return true;
  return position.lastMoment !== null && position.lastMoment >= earliestNewMs;
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
      if (!entry.factsRead) throw new Error('its facts were not read, and its kept fold state cannot go on; the order is replayed from its facts at its next input or by `ledger rebuild`');
      folded = replayToCheckpoint(entry.order, [...entry.facts, ...applied], stepOptions);
      replayed = true;
    }
    current = folded.checkpoint;
    if (!last && folded.record !== null) steps.push({ record: folded.record, ms: momentMs(moment) });
  }
  const result = folded!;
  const lastMs = added.length === 0 ? null : momentMs(moments[moments.length - 1]!);
  if (!replayed) return { record: result.record, sweepAt: result.sweepAt, error: null, checkpoint: added.length > 0 ? result.checkpoint : null, steps, lastMs };
  // One stored is always kept up: a position left behind its order's facts would be gone on from.
  const keepIt = entry.foldPosition !== null || factCount(result.checkpoint) >= CHECKPOINT_FROM_FACTS;
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
