import { emptyCheckpoint, type FoldCheckpoint } from './discrepancy-lifecycle';
import type { InputFact, ResolutionFact } from './ledger-facts';
import type { LedgerSettings } from '../../config/ledger-settings';
import type { Discrepancy } from './order-record';
import { evolveInPlace, timed } from './order-state';

/**
 * A fold checkpoint as the store keeps it (JSON, migration 019): the order's distinct facts (what
 * `evolve` folded: its state is rebuilt from them in one pass, without replaying the lifecycle),
 * the discrepancies as they stand, the resolutions waiting for theirs, and the grace bookkeeping.
 * The figures are not kept: they are read from the state.
 */
const VERSION = 1;

interface StoredFold {
  v: 1;
  /** The last moment applied, the last that changed the inputs, the latest change, the `lastInput` whose grace was read (epoch ms). */
  lastMoment: number | null;
  lastInput: number | null;
  latest: number | null;
  graceDoneFor: number | null;
  inputs: InputFact[];
  resolutions: ResolutionFact[];
  seen: Discrepancy[];
  /** Of `resolutions`, the ids of those that wait for their discrepancy to open (the first of each stands). */
  pending: string[];
}

/**
 * The settings a checkpoint was folded under, and its version: its history (what opened when)
 * depends on the settings, so a checkpoint of other settings, or of another version of this form,
 * is not gone on from; the order is replayed (the store reads its facts for it by this key).
 */
export const foldSettingsKey = (settings: LedgerSettings): string => `v${VERSION};grace=${settings.graceSeconds};require=${settings.requireExpectation}`;

export function storedFold(checkpoint: FoldCheckpoint): string {
  const { state } = checkpoint;
  const inputs: InputFact[] = [];
  for (const set of [state.expectations, state.notifications, state.cancellations, state.conflicts, state.refusals]) for (const entry of set.values()) inputs.push(entry.fact);
  const stored: StoredFold = {
    v: VERSION,
    lastMoment: checkpoint.lastMoment,
    lastInput: checkpoint.lastInput,
    latest: checkpoint.latest,
    graceDoneFor: checkpoint.graceDoneFor,
    inputs,
    resolutions: [...checkpoint.resolutions.values()],
    seen: [...checkpoint.seen.values()],
    pending: [...checkpoint.pending.values()].map((r) => r.id),
  };
  return JSON.stringify(stored);
}

/** The checkpoint a stored text holds; null when it is of another version (the order is replayed from its facts). */
export function restoredFold(json: string): FoldCheckpoint | null {
  const stored = JSON.parse(json) as StoredFold;
  if (stored.v !== VERSION) return null;
  const checkpoint = emptyCheckpoint();
  for (const fact of stored.inputs) evolveInPlace(checkpoint.state, timed(fact));
  for (const resolution of stored.resolutions) checkpoint.resolutions.set(resolution.id, resolution);
  for (const d of stored.seen) checkpoint.seen.set(d.id, d);
  for (const id of stored.pending) {
    const resolution = checkpoint.resolutions.get(id)!;
    checkpoint.pending.set(resolution.discrepancyId, resolution);
  }
  Object.assign(checkpoint, { lastMoment: stored.lastMoment, lastInput: stored.lastInput, latest: stored.latest, graceDoneFor: stored.graceDoneFor });
  return checkpoint;
}
