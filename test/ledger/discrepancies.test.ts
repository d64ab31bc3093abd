import { discrepancyId } from '../../src/ledger/fold/discrepancy-conditions';
import type { LedgerFact } from '../../src/ledger/fold/ledger-facts';
import { ORDER, PG, approval, deposit, expectation, minute, partialCancel, refund, resolution, transferFailed } from './ledger-fixtures';
import { given, openKinds } from './ledger-specification';

/** The grace period in minutes (LEDGER_GRACE_SECONDS 2100). */
const GRACE = 35;

/** Both arrival orders: the facts as listed, received a minute apart, and the last one received first. */
function arrivals(...facts: LedgerFact[]): Array<[string, LedgerFact[]]> {
  const restamp = (list: LedgerFact[]) => list.map((f, i) => ({ ...f, recordedAt: minute(i) }) as LedgerFact);
  return [
    ['in order', restamp(facts)],
    ['in reverse', restamp([...facts].reverse())],
  ];
}


describe('discrepancies', () => {
  describe('amount_mismatch', () => {
    const paid = approval({ pgCno: PG.card, amount: 3000, at: 1 });
    it.each(arrivals(expectation({ amount: 30000 }), paid))('a payment of another amount than expected opens it, delivered %s', (_label, facts) => {
      given(...facts).when().then((record) => {
        expect(record.status).toBe('discrepancy');
        expect(record.discrepancies).toEqual([{
          id: discrepancyId(ORDER, 'amount_mismatch', [paid.id]),
          kind: 'amount_mismatch',
          details: { pgCno: PG.card, expected: 30000, notified: 3000 },
          eventIds: [paid.id],
          openedAt: minute(1), resolvedAt: null, resolvedBy: null, note: null,
        }]);
      });
    });

    const deposited = deposit({ pgCno: PG.vaccount, amount: 44000, at: 1 });
    it.each(arrivals(expectation({ amount: 45000, method: 'vaccount' }), deposited))('a deposit of another amount opens it, delivered %s', (_label, facts) => {
      given(...facts).when().then((record) => {
        expect(openKinds(record)).toEqual(['amount_mismatch']);
        expect(record.discrepancies[0]!.details).toEqual({ pgCno: PG.vaccount, expected: 45000, notified: 44000 });
      });
    });

    it('a payment whose amount could not be read is a mismatch that says so', () => {
      given(expectation({ amount: 30000 })).when({ ...paid, amount: null }).then((record) => {
        expect(record.approved).toBe(0);
        expect(record.discrepancies[0]).toMatchObject({ kind: 'amount_mismatch', details: { expected: 30000, notified: null } });
      });
    });
  });

  describe('duplicate_payment', () => {
    const first = approval({ pgCno: PG.card, amount: 30000, at: 1 });
    const second = approval({ pgCno: PG.second, amount: 30000, at: 2 });
    it.each(arrivals(expectation({ amount: 30000 }), first, second))('two payments of the expected amount open it, delivered %s', (_label, facts) => {
      given(...facts).when().then((record) => {
        expect(record).toMatchObject({ status: 'discrepancy', approved: 60000, remaining: 60000 });
        expect(record.discrepancies).toEqual([expect.objectContaining({
          id: discrepancyId(ORDER, 'duplicate_payment', [first.id, second.id]),
          kind: 'duplicate_payment',
          eventIds: [first.id, second.id],
          details: { payments: 2, expected: 30000, largestPayment: 30000, remaining: 60000 },
          resolvedAt: null,
        })]);
      });
    });

    it('without an expectation, two payments leaving more than the largest one open it', () => {
      given(first).when(approval({ pgCno: PG.second, amount: 20000, at: 2 })).then((record) => expect(openKinds(record)).toEqual(['duplicate_payment']));
    });

    it('refunding the second payment resolves it: the ledger closes what no longer holds, and the whole first payment reads paid', () => {
      const refundSecond = { ...partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel1, cancelAmount: 30000, remainAmount: 0, at: 20 }), recordedAt: minute(20) };
      given(expectation({ amount: 30000 }), first, { ...second, recordedAt: minute(2) }).when(refundSecond).then((record) => {
        expect(record.status).toBe('paid');
        expect(record.remaining).toBe(30000);
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'duplicate_payment', openedAt: minute(2), resolvedAt: minute(20), resolvedBy: 'ledger' })]);
      });
    });

    it('one payment and a deposit for one order is a double payment too', () => {
      given(expectation({ amount: 30000 }), first).when(deposit({ pgCno: PG.vaccount, amount: 30000, at: 3 })).then((record) => expect(openKinds(record)).toEqual(['duplicate_payment']));
    });
  });

  describe('over_cancel (waits for the grace period)', () => {
    const paid = approval({ pgCno: PG.card, amount: 10000, at: 1 });
    const cancel = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 15000, at: 2 });
    it.each(arrivals(paid, cancel))('cancelling more than was paid opens it once the grace period has passed, delivered %s', (_label, facts) => {
      const lastChange = 1;
      given(...facts).when().then((record, { sweepAt }) => {
        expect(record).toMatchObject({ status: 'cancelled', cancelled: 15000, remaining: -5000, discrepancies: [] });
        expect(sweepAt).toBe(minute(lastChange + GRACE));
      }, { now: lastChange + GRACE - 1 });
      given(...facts).when().then((record, { sweepAt }) => {
        expect(record.status).toBe('discrepancy');
        expect(record.discrepancies).toEqual([expect.objectContaining({
          kind: 'over_cancel', eventIds: [cancel.id], details: { approved: 10000, deposited: 0, cancelled: 15000 }, openedAt: minute(lastChange + GRACE), resolvedAt: null,
        })]);
        expect(record.updatedAt).toBe(minute(lastChange + GRACE));
        expect(sweepAt).toBeNull();
      }, { now: lastChange + GRACE });
    });

    it('a cancel whose approval comes late is no discrepancy when the approval comes within the grace period', () => {
      given({ ...cancel, recordedAt: minute(0) }).when({ ...approval({ pgCno: PG.card, amount: 15000, at: 1 }), recordedAt: minute(GRACE - 1) }).then({ status: 'cancelled', remaining: 0, discrepancies: [] });
    });

    it('the late approval of an over-cancel resolves it automatically, by ledger', () => {
      const late = { ...approval({ pgCno: PG.card, amount: 15000, at: 1 }), recordedAt: minute(50) };
      given({ ...cancel, recordedAt: minute(0) }).when(late).then((record) => {
        expect(record.status).toBe('cancelled');
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'over_cancel', openedAt: minute(GRACE), resolvedAt: minute(50), resolvedBy: 'ledger', note: 'the condition no longer holds' })]);
      });
    });
  });

  describe('remaining_mismatch (waits for the grace period)', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
    const cancel = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 25000, at: 2 });
    it.each(arrivals(paid, cancel))('a remainder the gateway states differently opens it after the grace period, delivered %s', (_label, facts) => {
      given(...facts).when().then({ status: 'partially_cancelled', discrepancies: [] }, { now: 1 + GRACE - 1 });
      given(...facts).when().then((record) => {
        expect(record.status).toBe('discrepancy');
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'remaining_mismatch', eventIds: [paid.id, cancel.id], details: { pgCno: PG.card, notified: 25000, computed: 20000 }, openedAt: minute(1 + GRACE) })]);
      });
    });

    it('the latest event 20 by the gateway\'s time is the one compared, not the last delivered', () => {
      const first = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 2, received: 5 });
      const second = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 5000, remainAmount: 15000, at: 3, received: 4 });
      given(paid).when(second, first).then({ remaining: 15000, discrepancies: [] });
    });

    it('with two payments, the cancelled payment\'s own remainder is compared', () => {
      const other = approval({ pgCno: PG.second, amount: 30000, at: 2 });
      const refundOther = partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel1, cancelAmount: 30000, remainAmount: 0, at: 3 });
      given(expectation({ amount: 30000 }), paid, other).when(refundOther).then((record) => {
        expect(record).toMatchObject({ status: 'paid', remaining: 30000 });
        expect(openKinds(record)).toEqual([]);
      });
    });
  });

  describe('refund_transfer_failed', () => {
    const paid = deposit({ pgCno: PG.vaccount, amount: 45000, at: 1 });
    const refunded = partialCancel({ pgCno: PG.vaccount, cancelPgCno: PG.cancel1, cancelAmount: 45000, remainAmount: 0, at: 2 });
    const failed = transferFailed({ pgCno: PG.vaccount, amount: 45000, at: 3 });
    it.each(arrivals(paid, refunded, failed))('an event 51 opens it at once and the order reads refund_failed, delivered %s', (_label, facts) => {
      given(...facts).when().then((record) => {
        expect(record.status).toBe('refund_failed');
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'refund_transfer_failed', eventIds: [failed.id], details: { pgCno: PG.vaccount, amount: 45000, resCd: 'B102' }, resolvedAt: null })]);
      }, { now: 4 });
    });

    it('a refund completed (50) after the failure shows it was repeated: resolved by ledger', () => {
      const repeated = { ...refund({ pgCno: PG.vaccount, amount: 45000, at: 60 }), recordedAt: minute(60) };
      given(paid, refunded, { ...failed, recordedAt: minute(3) }).when(repeated).then((record) => {
        expect(record.status).toBe('cancelled');
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'refund_transfer_failed', resolvedAt: minute(60), resolvedBy: 'ledger' })]);
      });
    });

    it('an operator resolves it with a note: resolved by them, and the status is recomputed', () => {
      const id = discrepancyId(ORDER, 'refund_transfer_failed', [failed.id]);
      given(paid, refunded, { ...failed, recordedAt: minute(3) }).when(resolution(id, { by: 'kim.operator', note: 'paid by bank transfer', received: 30 })).then((record) => {
        expect(record.status).toBe('cancelled');
        expect(record.discrepancies).toEqual([expect.objectContaining({ id, resolvedAt: minute(30), resolvedBy: 'kim.operator', note: 'paid by bank transfer' })]);
        expect(record.updatedAt).toBe(minute(30));
      });
    });
  });

  describe('unexpected_payment', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
    it('with LEDGER_REQUIRE_EXPECTATION a payment nobody expected opens it', () => {
      given().when(paid).then((record) => {
        expect(record.status).toBe('discrepancy');
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'unexpected_payment', eventIds: [paid.id], details: { pgCno: PG.card, amount: 30000 } })]);
      }, { settings: { requireExpectation: true } });
    });

    it('with LEDGER_REQUIRE_EXPECTATION a deposit nobody expected opens it', () => {
      given().when(deposit({ pgCno: PG.vaccount, amount: 45000, at: 1 })).then((record) => expect(openKinds(record)).toEqual(['unexpected_payment']), { settings: { requireExpectation: true } });
    });

    it('without LEDGER_REQUIRE_EXPECTATION the same payment is simply paid', () => {
      given().when(paid).then({ status: 'paid', discrepancies: [] }, { settings: { requireExpectation: false } });
    });

    it('an expectation registered before the payment: nothing opens; registered after it: it opened and the ledger resolved it', () => {
      given(expectation({ amount: 30000, received: 0 })).when({ ...paid, recordedAt: minute(1) }).then({ status: 'paid', discrepancies: [] }, { settings: { requireExpectation: true } });
      given({ ...paid, recordedAt: minute(1) }).when(expectation({ amount: 30000, received: 2 })).then((record) => {
        expect(record.status).toBe('paid');
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'unexpected_payment', openedAt: minute(1), resolvedAt: minute(2), resolvedBy: 'ledger' })]);
      }, { settings: { requireExpectation: true } });
    });
  });

  describe('payment_after_expiry', () => {
    const expiring = expectation({ amount: 30000, expiresAt: '2026-11-21T12:10:00+09:00' });
    const late = approval({ pgCno: PG.card, amount: 30000, at: 15 });
    it.each(arrivals(expiring, late))('a payment made after the expectation expired opens it, delivered %s', (_label, facts) => {
      given(...facts).when().then((record) => {
        expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'payment_after_expiry', eventIds: [late.id], details: { pgCno: PG.card, at: '2026-11-21T12:15:00+09:00', expiresAt: '2026-11-21T12:10:00+09:00' } })]);
      });
    });

    it('a payment made before the expiry, delivered after it, is in time: the gateway\'s time counts', () => {
      given(expiring).when({ ...approval({ pgCno: PG.card, amount: 30000, at: 9 }), recordedAt: minute(20) }).then({ status: 'paid', discrepancies: [] });
    });
  });
});
