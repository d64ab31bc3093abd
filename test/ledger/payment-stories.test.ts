import { discrepancyId } from '../../src/ledger/fold/discrepancy-conditions';
import {
  ORDER, PG, approval, basketApproval, deposit, escrow, expectation, minute, partialCancel, refund, refused, transferFailed,
} from './ledger-fixtures';
import { given, openKinds } from './ledger-specification';

/**
 * Payment stories a red-team run replayed from the gateway's documented notification shapes, each
 * of which the ledger once answered wrongly. given/when/then over the pure record, which also
 * recomputes every story reversed and with each fact delivered twice.
 */
describe('payment stories the ledger must read right', () => {
  describe('a refund completed (50) without an amount', () => {
    const deposited = deposit({ pgCno: PG.vaccount, amount: 50000, at: 1 });
    const rejected = escrow({ pgCno: PG.vaccount, statusCode: 'ES05', at: 5 });

    it('takes the amount of the deposit its depositPgCno names: the deposit is refunded, nothing remains', () => {
      const refunded = refund({ pgCno: PG.refund, depositPgCno: PG.vaccount, at: 9 });
      given(expectation({ amount: 50000, method: 'vaccount' }), deposited, rejected).when(refunded).then({
        status: 'cancelled', deposited: 50000, cancelled: 50000, remaining: 0,
        cancels: [{ cancelPgCno: null, pgCno: PG.refund, amount: 50000, remainingAfter: 0, eventId: refunded.id, at: '2026-11-21T12:09:00+09:00' }],
        discrepancies: [],
      });
    });

    it('takes what remains of its payment when it names nothing else', () => {
      const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
      const partly = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 2 });
      given(paid, partly).when(refund({ pgCno: PG.card, cancelPgCno: PG.cancel2, at: 3 })).then({
        status: 'cancelled', cancelled: 30000, remaining: 0, cancels: [expect.objectContaining({ amount: 10000 }), expect.objectContaining({ amount: 20000, remainingAfter: 0 })],
      });
    });

    it('takes the amount of the cancel it confirms, and counts once', () => {
      const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
      const change = { ...partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 2 }), cancelAmount: null, amount: null };
      given(paid, change).when(refund({ pgCno: PG.card, cancelPgCno: PG.cancel1, amount: 10000, at: 3 })).then({
        status: 'partially_cancelled', cancelled: 10000, remaining: 20000, cancels: [expect.objectContaining({ eventId: change.id, amount: 10000 })], discrepancies: [],
      });
    });

    it('is an unknown_refund_amount when nothing it names can tell: money moved that the record cannot count', () => {
      const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
      const unknown = refund({ pgCno: PG.refund, at: 5 });
      given(paid).when(unknown).then((record) => {
        expect(record.status).toBe('discrepancy');
        expect(record.cancels).toEqual([expect.objectContaining({ eventId: unknown.id, amount: null })]);
        expect(record.discrepancies).toEqual([expect.objectContaining({
          id: discrepancyId(ORDER, 'unknown_refund_amount', [unknown.id]), kind: 'unknown_refund_amount',
          details: { pgCno: PG.refund, cancelPgCno: null }, eventIds: [unknown.id], openedAt: minute(5), resolvedAt: null,
        })]);
      });
    });

    it('delivered before the deposit it names: unknown until the deposit comes, then resolved by ledger', () => {
      const refunded = { ...refund({ pgCno: PG.refund, depositPgCno: PG.vaccount, at: 9 }), recordedAt: minute(9) };
      given(refunded).when({ ...deposited, recordedAt: minute(12) }).then((record) => {
        expect(record).toMatchObject({ status: 'cancelled', remaining: 0 });
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'unknown_refund_amount', openedAt: minute(9), resolvedAt: minute(12), resolvedBy: 'ledger' })]);
      });
    });
  });

  describe('two partial cancels stamped in the same gateway second', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
    // Which of the two sorts last is up to their ids' hashes: both ways round.
    it.each([
      [PG.cancel1, PG.cancel2],
      [PG.cancel2, PG.cancel1],
    ])('remainders consistent in some order open nothing, whichever the id puts last (%s first)', (firstCancel, secondCancel) => {
      const first = partialCancel({ pgCno: PG.card, cancelPgCno: firstCancel, cancelAmount: 10000, remainAmount: 20000, at: 2 });
      const second = partialCancel({ pgCno: PG.card, cancelPgCno: secondCancel, cancelAmount: 5000, remainAmount: 15000, at: 2 });
      given(paid, first).when(second).then({ status: 'partially_cancelled', remaining: 15000, discrepancies: [] });
    });

    it('remainders no order explains are still a remaining_mismatch', () => {
      const first = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 2 });
      const second = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 5000, remainAmount: 20000, at: 2 });
      given(paid, first).when(second).then((record) => {
        expect(openKinds(record)).toEqual(['remaining_mismatch']);
        expect(record.discrepancies[0]!.details).toMatchObject({ pgCno: PG.card, computed: 15000 });
      });
    });
  });

  describe('a cancel whose pgCno has no payment of its own', () => {
    it('a basket product\'s cancel is compared with the basket payment\'s remainder', () => {
      const basket = basketApproval({ pgCno: PG.card, amount: 30000, products: [PG.product1, PG.product2], at: 1 });
      const productCancel = partialCancel({ pgCno: PG.product1, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 2 });
      given(expectation({ amount: 30000 }), basket).when(productCancel).then({ status: 'partially_cancelled', cancelled: 10000, remaining: 20000, discrepancies: [] });
    });

    it('a cancel of a pgCno the order never paid is compared with the order\'s remainder', () => {
      const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
      given(paid).when(partialCancel({ pgCno: PG.product1, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 2 })).then({ status: 'partially_cancelled', remaining: 20000, discrepancies: [] });
    });
  });

  describe('the status is the money the order holds now, payment by payment', () => {
    it('pay, cancel in full, pay again (a new pgCno) is paid, the first payment listed as cancelled', () => {
      const first = approval({ pgCno: PG.card, amount: 10000, at: 1 });
      const cancelFirst = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 0, at: 2, statusCode: 'TS05' });
      const second = approval({ pgCno: PG.second, amount: 10000, at: 3 });
      given(expectation({ amount: 10000 }), first, cancelFirst).when(second).then({
        status: 'paid', approved: 20000, cancelled: 10000, remaining: 10000,
        payments: [expect.objectContaining({ pgCno: PG.card, cancelled: true }), expect.objectContaining({ pgCno: PG.second, cancelled: false })],
        discrepancies: [],
      });
    });

    it('a payment cancelled in full, then the new payment partly cancelled, is partially cancelled', () => {
      const first = approval({ pgCno: PG.card, amount: 10000, at: 1 });
      const cancelFirst = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 0, at: 2, statusCode: 'TS05' });
      const second = approval({ pgCno: PG.second, amount: 10000, at: 3 });
      given(expectation({ amount: 10000 }), first, cancelFirst, second).when(partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel2, cancelAmount: 4000, remainAmount: 6000, at: 4 })).then({
        status: 'partially_cancelled', remaining: 6000, discrepancies: [],
      });
    });
  });

  describe('escrow', () => {
    it('an event 40 deposit (ES04) with no event 30 for its pgCno is the deposit', () => {
      const escrowDeposit = escrow({ pgCno: PG.vaccount, statusCode: 'ES04', amount: 45000, at: 3 });
      given(expectation({ amount: 45000, method: 'vaccount' })).when(escrowDeposit).then({
        status: 'paid', deposited: 45000, remaining: 45000,
        deposits: [{ pgCno: PG.vaccount, amount: 45000, cancelled: false, eventId: escrowDeposit.id, at: '2026-11-21T12:03:00+09:00' }],
        discrepancies: [],
      });
    });

    it('with an event 30 for its pgCno, the 40 is a status of that deposit, not a second one', () => {
      const paid = deposit({ pgCno: PG.vaccount, amount: 45000, at: 4 });
      given(paid).when(escrow({ pgCno: PG.vaccount, statusCode: 'ES04', amount: 45000, at: 3 })).then({ deposited: 45000, deposits: [expect.objectContaining({ eventId: paid.id })], discrepancies: [] });
    });

    it('a 51 with no time of its own is paired with the 50 received after it, not compared by its receipt time with the gateway\'s', () => {
      const paid = deposit({ pgCno: PG.vaccount, amount: 45000, at: 1 });
      const refunded = partialCancel({ pgCno: PG.vaccount, cancelPgCno: PG.cancel1, cancelAmount: 45000, remainAmount: 0, at: 2 });
      // Received at minute 30, dated by that receipt; the repeated refund's own date says minute 20, received at 40.
      const failed = transferFailed({ pgCno: PG.vaccount, amount: 45000, undated: true, received: 30 });
      const repeated = refund({ pgCno: PG.vaccount, amount: 45000, at: 20, received: 40 });
      given(paid, refunded, failed).when(repeated).then((record) => {
        expect(record.status).toBe('cancelled');
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'refund_transfer_failed', resolvedAt: minute(40), resolvedBy: 'ledger' })]);
      });
    });

    it('a 50 received before an undated 51 does not settle it', () => {
      const paid = deposit({ pgCno: PG.vaccount, amount: 45000, at: 1 });
      const refunded = refund({ pgCno: PG.vaccount, amount: 45000, at: 20, received: 20 });
      given(paid, refunded).when(transferFailed({ pgCno: PG.vaccount, amount: 45000, undated: true, received: 30 })).then({ status: 'refund_failed' });
    });

    it('one 50 repeats one failed payout: repeating the smaller of two failed refunds leaves the larger refund_failed', () => {
      const paid = deposit({ pgCno: PG.vaccount, amount: 50000, at: 1 });
      const small = partialCancel({ pgCno: PG.vaccount, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 40000, at: 2 });
      const large = partialCancel({ pgCno: PG.vaccount, cancelPgCno: PG.cancel2, cancelAmount: 20000, remainAmount: 20000, at: 4 });
      const failedSmall = transferFailed({ pgCno: PG.vaccount, cancelPgCno: PG.cancel1, amount: 10000, at: 3 });
      const failedLarge = transferFailed({ pgCno: PG.vaccount, cancelPgCno: PG.cancel2, amount: 20000, at: 5 });
      given(paid, small, large, failedSmall, failedLarge).when(refund({ pgCno: PG.vaccount, cancelPgCno: PG.cancel1, amount: 10000, at: 10 })).then((record) => {
        expect(record.status).toBe('refund_failed');
        expect(openKinds(record)).toEqual(['refund_transfer_failed']);
        expect(record.discrepancies.find((d) => d.resolvedAt === null)!.details).toMatchObject({ amount: 20000 });
      });
      // Without cancel numbers, the amount tells which refund was repeated.
      const failedA = transferFailed({ pgCno: PG.vaccount, amount: 10000, undated: true, received: 3 });
      given(paid, failedA).when(refund({ pgCno: PG.vaccount, amount: 20000, at: 10 })).then({ status: 'refund_failed' });
    });
  });

  describe('a refused notification', () => {
    it('retried by the gateway is one refused_notification, shown by the first refusal', () => {
      // Rejections 1 and 5 are the same approval body refused twice; 3 is a cancel of the same payment.
      given(refused(1)).when(refused(5), refused(3)).then((record) => {
        expect(record.discrepancies.map((d) => [d.kind, d.details.rejectionId, d.details.notiType])).toEqual([['refused_notification', 1, '10'], ['refused_notification', 3, '20']]);
      });
    });
  });
});
