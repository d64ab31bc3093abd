import { emptyCheckpoint, OrderFold, replayOrder, timeline, type FoldCheckpoint, type Replay } from './discrepancy-lifecycle';
import { showAsItStands } from './grown-list';
import type { LedgerFact, OrderKey } from './ledger-facts';
import type { LedgerSettings } from '../../config/ledger-settings';
import { epochMs } from './ledger-time';
import type { Discrepancy, Expected, OrderRecord } from './order-record';
import { distinctFacts, preferredFact } from './order-state';
import { orderStatus } from './order-status';

export interface LedgerComputation {
  /** Null when no expectation, notification or cancellation names the order: nothing is known. */
  record: OrderRecord | null;
  /** When the sweep must look at this order again (a grace-period kind waits); null when nothing waits. */
  sweepAt: string | null;
}

export interface FoldedComputation extends LedgerComputation {
  /** The fold after the order's last fact, to go on from at its next one. */
  checkpoint: FoldCheckpoint;
}

interface ComputeOptions {
  now: string;
  settings: LedgerSettings;
  /** False: the order's whole state is read after every input, never stepped (what the tests compare the steps with). */
  stepping?: boolean;
}

/**
 * The order record as a pure function of the order's stored facts, the time and the
 * settings. The facts may come in any order and repeat: the result is the same.
 */
export function computeOrderRecord(order: OrderKey, facts: readonly LedgerFact[], options: ComputeOptions): LedgerComputation {
  return recordOf(order, replayOrder(order, facts, options.settings, epochMs('now', options.now), options.stepping));
}

/** The same computation from nothing (every fact replayed), with the checkpoint it ends at. */
export function replayToCheckpoint(order: OrderKey, facts: readonly LedgerFact[], options: ComputeOptions): FoldedComputation {
  const fold = new OrderFold(order, options.settings, emptyCheckpoint(), options.stepping);
  for (const moment of timeline(distinctFacts(facts))) fold.apply(moment);
  return { ...recordOf(order, fold.finish(epochMs('now', options.now))), checkpoint: fold.checkpoint };
}

/**
 * The same computation from a checkpoint (of the order's facts so far, folded under the same
 * settings) and the order's new facts, each moment applied once: what `computeOrderRecord` gives
 * over all the facts, because the replay would go through the same checkpoint. Null when a new
 * fact was stored at or before the checkpoint's last moment (another replica's clock, an input
 * stored in the last moment's millisecond) or replaces a fact it holds: the caller replays from the
 * facts. The checkpoint is changed in place.
 */
export function foldNewFacts(order: OrderKey, checkpoint: FoldCheckpoint, facts: readonly LedgerFact[], options: ComputeOptions): FoldedComputation | null {
  const fold = new OrderFold(order, options.settings, checkpoint, options.stepping);
  const fresh: LedgerFact[] = [];
  for (const fact of distinctFacts(facts)) {
    const known = fold.factOf(fact.id);
    if (known === undefined) fresh.push(fact);
    else if (preferredFact(fact, known)) return null;
  }
  const moments = timeline(fresh);
  if (moments.length > 0 && !fold.after(moments[0]!.ms)) return null;
  for (const moment of moments) fold.apply(moment);
  return { ...recordOf(order, fold.finish(epochMs('now', options.now))), checkpoint };
}

function recordOf(order: OrderKey, replay: Replay): LedgerComputation {
  // The replay's last reading is of the final state: its figures are the record's, not computed again.
  const { discrepancies, sweepAt, figures, updatedAt } = replay;
  if (figures === null || updatedAt === null) return { record: null, sweepAt: null };
  const exp = figures.expectation?.fact;
  const expected: Expected | null = exp
    ? { amount: exp.amount, currency: exp.currency, method: exp.method, source: exp.source, expiresAt: exp.expiresAt, setAt: exp.recordedAt }
    : null;
  const ordered = discrepancies.length > 1 ? byOpening(discrepancies) : discrepancies;
  const record: OrderRecord = {
    mallId: order.mallId,
    shopOrderNo: order.shopOrderNo,
    status: orderStatus(figures, expected, ordered),
    expected,
    approved: figures.approved,
    cancelled: figures.cancelled,
    remaining: figures.remaining,
    deposited: figures.deposited,
    payments: figures.payments,
    cancels: figures.cancels,
    deposits: figures.deposits,
    ...(figures.refundsFailed.length > 0 && { refundsFailed: figures.refundsFailed }),
    escrow: figures.escrow,
    cancellationsRequested: figures.cancellationsRequested,
    events: figures.events,
    discrepancies: ordered,
    updatedAt,
    ...(figures.simulated && { simulated: true as const }),
  };
  showAsItStands(record, 'events', figures.events);
  showAsItStands(record, 'cancels', figures.cancels);
  return { record, sweepAt };
}

/** By openedAt, then id; each time parsed once, not at every comparison. */
function byOpening(discrepancies: Discrepancy[]): Discrepancy[] {
  return discrepancies
    .map((d) => ({ d, ms: Date.parse(d.openedAt) }))
    .sort((a, b) => a.ms - b.ms || (a.d.id < b.d.id ? -1 : a.d.id > b.d.id ? 1 : 0))
    .map(({ d }) => d);
}
