/** Random histories of one order, shared by the property tests of the fold. */
import fc from 'fast-check';
import type { LedgerFact } from '../../src/ledger/fold/ledger-facts';
import type { LedgerSettings } from '../../src/config/ledger-settings';
import {
  approval, basketApproval, deposit, depositCancel, escrow, expectation, minute, partialCancel, refund, refused, resolution, transferFailed, unionPay, walletCancellation,
} from './ledger-fixtures';
import { compute } from './ledger-specification';

/** Realistic values: a few payments and cancels of one order, amounts in won, times within three hours. */
const pgCno = fc.constantFrom('26112112000000000001', '26112112000000000002', '26112112000000000003');
const cancelPgCno = fc.constantFrom('26112112000000000011', '26112112000000000012', '26112112000000000013', '26112112000000000014');
const amount = fc.constantFrom(1000, 3000, 5000, 10000, 12000, 15000, 30000, 45000);
const received = fc.integer({ min: 0, max: 180 });
/** The gateway's time, and a receipt up to an hour later (its retries are 3 minutes apart). */
const timing = fc.record({ at: fc.integer({ min: 0, max: 180 }), delay: fc.integer({ min: 0, max: 60 }) }).map(({ at, delay }) => ({ at, received: at + delay }));

/** A basket's products: a cancel may name one instead of the payment. */
const product = fc.constantFrom('26112112000000000021', '26112112000000000022');
/** Cancels and refunds name a payment, a basket's product, or a pgCno the order never paid. */
const cancelled = fc.oneof(pgCno, product, fc.constant('26112112000000000031'));

export const fact: fc.Arbitrary<LedgerFact> = fc.oneof(
  fc.record({ t: timing, pgCno, amount }).map(({ t, ...o }) => approval({ ...t, ...o })),
  fc.record({ t: timing, pgCno, amount, products: fc.subarray(['26112112000000000021', '26112112000000000022'], { minLength: 1 }) }).map(({ t, ...o }) => basketApproval({ ...t, ...o })),
  fc.record({ received, pgCno, amount }).map((o) => unionPay(o)),
  fc.record({ t: timing, pgCno: cancelled, cancelPgCno, cancelAmount: amount, remainAmount: fc.option(amount, { nil: undefined }) }).map(({ t, ...o }) => partialCancel({ ...t, ...o })),
  fc.record({
    t: timing, pgCno: cancelled, amount: fc.option(amount, { nil: undefined }), cancelPgCno: fc.option(cancelPgCno, { nil: undefined }),
    depositPgCno: fc.option(pgCno, { nil: undefined }), undated: fc.boolean(),
  }).map(({ t, ...o }) => refund({ ...t, ...o })),
  fc.record({ t: timing, pgCno, amount }).map(({ t, ...o }) => deposit({ ...t, ...o })),
  fc.record({ t: timing, pgCno, amount }).map(({ t, ...o }) => depositCancel({ ...t, ...o })),
  fc.record({ t: timing, pgCno, statusCode: fc.constantFrom('ES01', 'ES02', 'ES03', 'ES04', 'ES07'), amount: fc.option(amount, { nil: undefined }) }).map(({ t, ...o }) => escrow({ ...t, ...o })),
  fc.record({ t: timing, pgCno, amount, undated: fc.boolean() }).map(({ t, ...o }) => transferFailed({ ...t, ...o })),
  fc.record({
    amount,
    method: fc.constantFrom('card' as const, 'vaccount' as const, 'wallet' as const, 'other' as const),
    expiresAt: fc.option(fc.integer({ min: 0, max: 180 }).map(minute), { nil: undefined }),
    received,
  }).map((o) => expectation(o)),
  fc.record({ shopTransactionId: fc.constantFrom('CXL-1', 'CXL-2'), pgCno, state: fc.constantFrom('pending', 'succeeded', 'failed'), received }).map((o) => walletCancellation(o)),
  fc.integer({ min: 1, max: 8 }).map((rejectionId) => refused(rejectionId)),
);

export const settings: fc.Arbitrary<Partial<LedgerSettings>> = fc.record({ requireExpectation: fc.boolean(), graceSeconds: fc.constantFrom(0, 600, 2100) });
export const now = fc.integer({ min: 0, max: 400 });
/** Operators resolving some of the discrepancies the facts open, at some time. */
export const resolutions = fc.array(fc.record({ pick: fc.nat(), received: fc.integer({ min: 0, max: 400 }) }), { maxLength: 3 });

/** The facts, then the same facts in another order with some delivered again. */
export const story = fc.array(fact, { minLength: 1, maxLength: 14 }).chain((facts) =>
  fc.tuple(
    fc.constant(facts),
    fc.subarray(facts).chain((again) => fc.shuffledSubarray([...facts, ...again], { minLength: facts.length + again.length, maxLength: facts.length + again.length })),
  ),
);

export function withResolutions(facts: LedgerFact[], picks: Array<{ pick: number; received: number }>, options: { settings: Partial<LedgerSettings>; now: number }): LedgerFact[] {
  const found = compute(facts, options).record?.discrepancies ?? [];
  if (found.length === 0) return facts;
  return [...facts, ...picks.map(({ pick, received: at }) => resolution(found[pick % found.length]!.id, { by: 'kim.operator', received: at }))];
}
