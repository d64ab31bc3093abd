import fc from 'fast-check';
import { computeOrderRecord, foldNewFacts, replayToCheckpoint, type FoldedComputation } from '../../src/ledger/fold/compute-order-record';
import type { FoldCheckpoint } from '../../src/ledger/fold/discrepancy-lifecycle';
import type { LedgerFact, NotificationFact } from '../../src/ledger/fold/ledger-facts';
import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { showAsItStands } from '../../src/ledger/fold/grown-list';
import {
  ORDER, PG, approval, deposit, depositCancel, escrow, expectation, minute, partialCancel, refund, refused, transferFailed,
} from './ledger-fixtures';

/**
 * A new notification that comes after every other of its order and whose effect is local (a
 * cancel of its own amount, a confirmation of one, an escrow status, a failure) steps the fold's
 * figures and conditions instead of reading the order's whole state (figures-step.ts). Here the
 * checkpoint stays in memory across batches, as the compute thread keeps it, over long histories
 * that are mostly in order, with the inputs that must make it read the whole state mixed in. Each
 * record must be the one a fold that reads the whole state after every input gives
 * (`stepping: false`), and a record once returned must never change when later inputs grow the
 * lists it shows.
 */
const CANCEL_KEYS = Array.from({ length: 60 }, (_, i) => `261121129${String(i).padStart(11, '0')}`);
const UNPAID = '26112112000000000031';

type Step =
  | { kind: 'cancel'; pgCno: 0 | 1 | 2; amount: number; remain: 'right' | 'wrong' | 'none'; type: '20' | '50' }
  | { kind: 'confirm'; back: number; amount: number | null }
  | { kind: 'escrow'; status: 'ES01' | 'ES02' | 'ES04' }
  | { kind: 'failed' }
  | { kind: 'rare'; which: 'transferFailed' | 'unkeyedRefund' | 'deposit' | 'depositCancel' | 'expectation' | 'refused' | 'payment' }
  | { kind: 'late'; minutes: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 20, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pgCno: fc.constantFrom(0 as const, 0 as const, 0 as const, 1 as const, 2 as const), amount: fc.constantFrom(100, 1000, 5000, 30000), remain: fc.constantFrom('right' as const, 'right' as const, 'wrong' as const, 'none' as const), type: fc.constantFrom('20' as const, '20' as const, '50' as const) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('confirm' as const), back: fc.nat(), amount: fc.option(fc.constantFrom(100, 1000), { nil: null }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('escrow' as const), status: fc.constantFrom('ES01' as const, 'ES02' as const, 'ES04' as const) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'failed' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rare' as const), which: fc.constantFrom('transferFailed' as const, 'unkeyedRefund' as const, 'deposit' as const, 'depositCancel' as const, 'expectation' as const, 'refused' as const, 'payment' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('late' as const), minutes: fc.integer({ min: 1, max: 30 }) }) },
);

/** The facts of a history: one payment, then the steps a minute apart (stored as they happen, but for `late` ones). */
function historyOf(steps: readonly Step[], twoPayments: boolean): LedgerFact[] {
  const facts: LedgerFact[] = [approval({ pgCno: PG.card, amount: 1_000_000, at: 0 })];
  if (twoPayments) facts.push(approval({ pgCno: PG.second, amount: 1_000_000, at: 1 }));
  const keys: string[] = [];
  // What each payment, and the order as a whole, has left: a right stated remainder is of the
  // cancel's payment, or of the order when it names none of the order's payments.
  const left = new Map<string, number>([[PG.card, 1_000_000], ...(twoPayments ? [[PG.second, 1_000_000] as [string, number]] : [])]);
  let orderLeft = twoPayments ? 2_000_000 : 1_000_000;
  const take = (pgCno: string, amount: number): number => {
    orderLeft -= amount;
    const held = left.get(pgCno);
    if (held === undefined) return orderLeft;
    left.set(pgCno, held - amount);
    return held - amount;
  };
  steps.forEach((s, i) => {
    const at = i + 2;
    const key = CANCEL_KEYS[i % CANCEL_KEYS.length]!;
    switch (s.kind) {
      case 'cancel': {
        const pgCno = [PG.card, PG.second, UNPAID][s.pgCno]!;
        const after = take(pgCno, s.amount);
        if (s.type === '50') facts.push(refund({ pgCno, amount: s.amount, cancelPgCno: key, at }));
        else {
          const remainAmount = s.remain === 'none' ? undefined : s.remain === 'right' ? after : after + 1;
          facts.push(partialCancel({ pgCno, cancelPgCno: key, cancelAmount: s.amount, remainAmount, at }));
        }
        keys.push(key);
        return;
      }
      case 'confirm': {
        const named = keys.length === 0 ? key : keys[s.back % keys.length]!;
        facts.push(refund({ pgCno: PG.card, cancelPgCno: named, at, ...(s.amount !== null && { amount: s.amount }) }));
        return;
      }
      case 'escrow':
        facts.push(escrow({ pgCno: PG.card, statusCode: s.status, at }));
        return;
      case 'failed':
        facts.push({ ...partialCancel({ pgCno: PG.card, cancelPgCno: key, cancelAmount: 1000, at }), resCd: 'E101' } satisfies NotificationFact);
        return;
      case 'late':
        take(PG.card, 100);
        facts.push(partialCancel({ pgCno: PG.card, cancelPgCno: key, cancelAmount: 100, at: at - s.minutes, received: at }));
        keys.push(key);
        return;
      case 'rare':
        facts.push(rare(s.which, at, key));
    }
  });
  return facts;
}

function rare(which: Extract<Step, { kind: 'rare' }>['which'], at: number, key: string): LedgerFact {
  switch (which) {
    case 'transferFailed': return transferFailed({ pgCno: PG.card, amount: 1000, cancelPgCno: key, at });
    case 'unkeyedRefund': return refund({ pgCno: PG.card, amount: 1000, at });
    case 'deposit': return deposit({ pgCno: PG.vaccount, amount: 20000, at });
    case 'depositCancel': return depositCancel({ pgCno: PG.vaccount, amount: 20000, at });
    case 'expectation': return expectation({ amount: 1_000_000, received: at });
    case 'refused': return { ...refused(1), recordedAt: minute(at) };
    case 'payment': return approval({ pgCno: key, amount: 5000, at });
  }
}

function batchesOf<T>(items: readonly T[], sizes: readonly number[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0, k = 0; i < items.length; k += 1) {
    const size = sizes[k % sizes.length]!;
    batches.push(items.slice(i, i + size));
    i += size;
  }
  return batches;
}

describe('the stepped fold', () => {
  it('over long, mostly in-order histories kept in memory, each record is the whole-state fold\'s, and no record once returned changes', () => {
    const inputs = { stepped: 0, all: 0 };
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 5, maxLength: 60 }), fc.boolean(), fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 }),
        fc.record({ graceSeconds: fc.constantFrom(0, 600), requireExpectation: fc.boolean() }),
        (steps, twoPayments, sizes, partial) => {
          const settings = { ...DEFAULT_LEDGER_SETTINGS, ...partial };
          const facts = historyOf(steps, twoPayments);
          const stored: LedgerFact[] = [];
          let checkpoint: FoldCheckpoint | null = null;
          const returned: Array<{ record: OrderRecord; json: string }> = [];
          for (const batch of batchesOf(facts, sizes)) {
            stored.push(...batch);
            const now = batch[batch.length - 1]!.recordedAt;
            const options = { now, settings };
            // The fold changes the checkpoint in place: what it held before is read first.
            const kept: FoldCheckpoint | null = checkpoint;
            const before = kept === null || kept.reading === null ? null : { ...kept.reading };
            const folded: FoldedComputation = (kept === null ? null : foldNewFacts(ORDER, kept, batch, options)) ?? replayToCheckpoint(ORDER, stored, options);
            // A whole read starts new figures and counts from 0; otherwise the count goes on.
            checkpoint = folded.checkpoint;
            const after = folded.checkpoint.reading;
            inputs.stepped += after === null ? 0 : after.figures === before?.figures ? after.steps - before.steps : after.steps;
            inputs.all += batch.length;
            const whole = computeOrderRecord(ORDER, stored, { ...options, stepping: false });
            expect(folded.record).toEqual(whole.record);
            expect(folded.sweepAt).toBe(whole.sweepAt);
            // The replay that steps too (what `ledger rebuild` runs) gives the same.
            expect(computeOrderRecord(ORDER, stored, options).record).toEqual(whole.record);
            returned.push({ record: folded.record!, json: JSON.stringify(folded.record) });
          }
          for (const { record, json } of returned) expect(JSON.stringify(record)).toBe(json);
        },
      ),
      { numRuns: 300 },
    );
    // The property is about the steps: over a thousand inputs took one (about 45 %), and many read the whole state.
    expect(inputs.stepped).toBeGreaterThan(1000);
    expect(inputs.stepped / inputs.all).toBeGreaterThan(0.3);
    expect(inputs.stepped / inputs.all).toBeLessThan(0.9);
  });

  it('2,000 partial cancels on one order, one at a time from a kept checkpoint: every one steps, and the record is the whole-state fold\'s', () => {
    const settings = DEFAULT_LEDGER_SETTINGS;
    const cancel = (i: number): NotificationFact =>
      partialCancel({ pgCno: PG.card, cancelPgCno: CANCEL_KEYS[0]!.slice(0, 8) + String(i).padStart(12, '0'), cancelAmount: 1, remainAmount: 1_000_000 - (i + 1), at: i + 1 });
    const facts: LedgerFact[] = [approval({ pgCno: PG.card, amount: 1_000_000, at: 0 })];
    let checkpoint = replayToCheckpoint(ORDER, facts, { now: minute(0), settings }).checkpoint;
    const first = checkpoint.reading!;
    let last: OrderRecord | null = null;
    for (let i = 0; i < 2000; i += 1) {
      const next = cancel(i);
      facts.push(next);
      const folded = foldNewFacts(ORDER, checkpoint, [next], { now: next.recordedAt, settings })!;
      checkpoint = folded.checkpoint;
      last = folded.record;
    }
    expect(checkpoint.reading!.steps).toBe(2000);
    // Stepped in place: the same figures from the first input to the last.
    expect(checkpoint.reading!.figures).toBe(first.figures);
    const whole = computeOrderRecord(ORDER, facts, { now: facts[facts.length - 1]!.recordedAt, settings, stepping: false }).record!;
    expect(last).toEqual(whole);
    expect(last).toMatchObject({ status: 'partially_cancelled', cancelled: 2000, remaining: 998_000, discrepancies: [] });
    expect(last!.cancels).toHaveLength(2000);
  });

  it('a cancel whose stated remainder is wrong reads the whole state, and the mismatch opens as the whole-state fold opens it', () => {
    const settings = { ...DEFAULT_LEDGER_SETTINGS, graceSeconds: 0 };
    const facts: LedgerFact[] = [approval({ pgCno: PG.card, amount: 30000, at: 0 }), partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 1000, remainAmount: 29000, at: 1 })];
    const { checkpoint } = replayToCheckpoint(ORDER, facts, { now: minute(1), settings });
    expect(checkpoint.reading!.steps).toBe(1);
    const wrong = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 1000, remainAmount: 5000, at: 2 });
    const folded = foldNewFacts(ORDER, checkpoint, [wrong], { now: minute(2), settings })!;
    expect(checkpoint.reading!.steps).toBe(0);
    expect(folded.record!.discrepancies).toEqual([expect.objectContaining({ kind: 'remaining_mismatch', openedAt: minute(2) })]);
    expect(folded.record).toEqual(computeOrderRecord(ORDER, [...facts, wrong], { now: minute(2), settings, stepping: false }).record);
  });
});

describe('a record\'s list shown as it stands', () => {
  it.each([2, 1000])('keeps what a list of %i held when the record was made, in its place among the keys, through JSON, a spread and a structured clone', (size) => {
    const list = Array.from({ length: size }, (_, i) => `e${i}`);
    const then = [...list];
    const record = { first: 1, events: list as string[], last: 2 };
    showAsItStands(record, 'events', list);
    list.push('later');
    expect(JSON.stringify(record)).toBe(JSON.stringify({ first: 1, events: then, last: 2 }));
    expect({ ...record }).toEqual({ first: 1, events: then, last: 2 });
    expect(structuredClone(record)).toEqual({ first: 1, events: then, last: 2 });
    // Once read, the copy is the record's own: it can be replaced like any property.
    record.events = ['z'];
    expect(record.events).toEqual(['z']);
  });
});
