import fc from 'fast-check';
import { computeOrderRecord, foldNewFacts, replayToCheckpoint, type LedgerComputation } from '../../src/ledger/fold/compute-order-record';
import type { FoldCheckpoint } from '../../src/ledger/fold/discrepancy-lifecycle';
import { foldSettingsKey } from '../../src/ledger/fold/fold-state';
import type { LedgerFact } from '../../src/ledger/fold/ledger-facts';
import { DEFAULT_LEDGER_SETTINGS, type LedgerSettings } from '../../src/config/ledger-settings';
import { ledgerEvents } from '../../src/ledger/fold/ledger-events';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { settings, story, withResolutions } from './ledger-arbitraries';
import { BASE_MS, ORDER, PG, approval, expectation, minute, partialCancel, resolution } from './ledger-fixtures';

/**
 * The projector keeps each order's fold state (fold-cache.ts) and applies a new input to it
 * instead of replaying the order's history; an input stored at or before the checkpoint's last
 * moment replays from the facts. Whatever the batches and the arrival order, each step's record,
 * sweep time and events must be those of the replay that reads the order's whole state after
 * every input (`stepping: false`: the fold steps an in-order notification's figures instead,
 * and `ledger rebuild` steps them too).
 */
interface Stored {
  facts: LedgerFact[];
  ids: Set<string>;
  /** The fold state as the projector's cache keeps it; null before the first computation, as after a restart. */
  state: FoldCheckpoint | null;
  record: OrderRecord | null;
}

const paths = { incremental: 0, replayed: 0 };

/** One batch as the projector applies it: facts already stored add nothing; the computation is as of `now`. */
function applyBatch(stored: Stored, batch: readonly LedgerFact[], settings: LedgerSettings, now: string): LedgerComputation {
  const fresh: LedgerFact[] = [];
  for (const fact of batch) {
    if (stored.ids.has(fact.id)) continue;
    stored.ids.add(fact.id);
    fresh.push(fact);
  }
  stored.facts.push(...fresh);
  const options = { now, settings };
  const checkpoint = stored.state;
  let folded = checkpoint === null ? null : foldNewFacts(ORDER, checkpoint, fresh, options);
  if (folded === null) paths.replayed += 1;
  else paths.incremental += 1;
  folded ??= replayToCheckpoint(ORDER, stored.facts, options);
  stored.state = folded.checkpoint;
  return { record: folded.record, sweepAt: folded.sweepAt };
}

/** Consecutive runs of 1 to 4 facts. */
function batchesOf<T>(items: readonly T[], sizes: readonly number[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0, k = 0; i < items.length; k += 1) {
    const size = sizes[k % sizes.length] ?? 1;
    batches.push(items.slice(i, i + size));
    i += size;
  }
  return batches;
}

const latestOf = (facts: readonly LedgerFact[]): string => facts.reduce((latest, f) => (Date.parse(f.recordedAt) > Date.parse(latest) ? f.recordedAt : latest), facts[0]!.recordedAt);
/** After each batch, maybe a sweep that many minutes after the latest stored fact. */
const sweeps = fc.array(fc.option(fc.integer({ min: 0, max: 60 })), { maxLength: 4 });
const minutesOf = (iso: string): number => (Date.parse(iso) - BASE_MS) / 60_000;
const sizes = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 });
/** In stored order (the usual case: the checkpoint goes on), or shuffled (replays from the facts). */
const ordering = fc.constantFrom('stored', 'shuffled');

describe('the stored fold checkpoint gives what the replay gives', () => {
  it('over random batches and arrival orders, with operators resolving and sweeps, every step equals the replay: record, sweep time, events', () => {
    fc.assert(
      fc.property(story, settings, fc.array(fc.record({ pick: fc.nat(), received: fc.integer({ min: 0, max: 400 }) }), { maxLength: 3 }), sizes, ordering, sweeps,
        ([facts, arrival], partial, picks, split, order, sweepAfter) => {
          const s = { ...DEFAULT_LEDGER_SETTINGS, ...partial };
          const all = withResolutions(facts, picks, { settings: partial, now: 400 });
          const resolutions = all.slice(facts.length);
          const delivered = [...arrival, ...resolutions];
          const sequence = order === 'stored'
            ? [...delivered].sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt))
            : delivered;
          const stored: Stored = { facts: [], ids: new Set(), state: null, record: null };
          const announced = new Set<string>();
          const step = (batch: readonly LedgerFact[], now: string): void => {
            const live = applyBatch(stored, batch, s, now);
            expect(live).toEqual(computeOrderRecord(ORDER, stored.facts, { now, settings: s, stepping: false }));
            if (live.record !== null) {
              for (const event of ledgerEvents(stored.record, live.record)) if (event.type === 'ledger.discrepancy') announced.add(event.discrepancy.id);
              stored.record = live.record;
            }
          };
          batchesOf(sequence, split).forEach((batch, i) => {
            step(batch, latestOf(batch));
            // A sweep on the clock, which may run ahead of facts stored before it and applied after it.
            const sweep = sweepAfter[i % Math.max(1, sweepAfter.length)];
            if (sweep !== undefined && sweep !== null && stored.facts.length > 0) step([], minute(minutesOf(latestOf(stored.facts)) + sweep));
          });
          // The sweep after the grace periods: no new fact, the checkpoint read as of later.
          for (const later of [minute(500), minute(24 * 60)]) {
            const swept = applyBatch(stored, [], s, later);
            expect(swept).toEqual(computeOrderRecord(ORDER, stored.facts, { now: later, settings: s, stepping: false }));
            for (const event of ledgerEvents(stored.record, swept.record!)) if (event.type === 'ledger.discrepancy') announced.add(event.discrepancy.id);
            stored.record = swept.record;
          }
          // What the store holds (of two resolutions of one discrepancy, the first stored), rebuilt.
          const rebuilt = computeOrderRecord(ORDER, stored.facts, { now: minute(24 * 60), settings: s, stepping: false }).record!;
          expect(stored.record).toEqual(rebuilt);
          for (const d of rebuilt.discrepancies) expect(announced).toContain(d.id);
        }),
      { numRuns: 400 },
    );
    // Both paths ran: the property is about the checkpoint, not only the replay behind it.
    expect(paths.incremental).toBeGreaterThan(100);
    expect(paths.replayed).toBeGreaterThan(100);
  });

  const settingsOf = { ...DEFAULT_LEDGER_SETTINGS, graceSeconds: 600 };
  const approved = { ...approval({ pgCno: PG.card, amount: 30000, at: 1 }) };
  const overCancel = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 50000, at: 2 });

  it('a grace-period kind opens at the sweep from the checkpoint, and the next input goes on from the checkpoint, not from the sweep', () => {
    const stored: Stored = { facts: [], ids: new Set(), state: null, record: null };
    applyBatch(stored, [approved, overCancel], settingsOf, minute(2));
    const waiting = applyBatch(stored, [], settingsOf, minute(5));
    expect(waiting.sweepAt).toBe(minute(12));
    expect(waiting.record!.discrepancies).toEqual([]);
    const swept = applyBatch(stored, [], settingsOf, minute(13));
    expect(swept.record!.discrepancies).toEqual([expect.objectContaining({ kind: 'over_cancel', openedAt: minute(12), resolvedAt: null })]);
    const checkpoint = stored.state!;
    expect(checkpoint.seen.size).toBe(0);
    // An operator resolves it, stored after it opened: the checkpoint opens it as the replay does, then closes it.
    const closed = applyBatch(stored, [resolution(swept.record!.discrepancies[0]!.id, { received: 14 })], settingsOf, minute(14));
    expect(closed.record!.discrepancies).toEqual([expect.objectContaining({ openedAt: minute(12), resolvedAt: minute(14), resolvedBy: 'kim.operator' })]);
    expect(closed).toEqual(computeOrderRecord(ORDER, stored.facts, { now: minute(14), settings: settingsOf }));
  });

  it('a fact stored in the checkpoint\'s last millisecond is read with that moment\'s others: the order is replayed', () => {
    const expected = expectation({ amount: 30000, received: 2 });
    const stored: Stored = { facts: [], ids: new Set(), state: null, record: null };
    applyBatch(stored, [approved], settingsOf, minute(1));
    applyBatch(stored, [overCancel], settingsOf, minute(2));
    const before = paths.replayed;
    const live = applyBatch(stored, [expected], settingsOf, minute(2));
    expect(paths.replayed).toBe(before + 1);
    expect(live).toEqual(computeOrderRecord(ORDER, stored.facts, { now: minute(2), settings: settingsOf }));
  });

  it('a checkpoint is of its settings: another grace period or expectation rule has another key', () => {
    expect(foldSettingsKey(settingsOf)).not.toBe(foldSettingsKey(DEFAULT_LEDGER_SETTINGS));
    expect(foldSettingsKey({ ...DEFAULT_LEDGER_SETTINGS, requireExpectation: true })).not.toBe(foldSettingsKey(DEFAULT_LEDGER_SETTINGS));
  });
});
