import { PG, approval, deposit, partialCancel, refund, transferFailed } from './ledger-fixtures';
import { given } from './ledger-specification';

/**
 * An event 51 states no amount in the gateway's document: the amount that failed is the refund it
 * follows, the latest refund of the same payment or deposit dated before it whose payout no 50 had
 * completed by then; unknown (null, never 0) when there is none.
 */
describe('a failed refund (51) that states no amount', () => {
  const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
  const amountsOf = (record: { refundsFailed?: Array<{ amount: number | null }> }) => (record.refundsFailed ?? []).map((r) => r.amount);
  const detailsAmount = (record: { discrepancies: Array<{ kind: string; details: Record<string, unknown> }> }) =>
    record.discrepancies.filter((d) => d.kind === 'refund_transfer_failed').map((d) => d.details.amount);

  it('is the amount of the refund it follows, in the record and in its discrepancy', () => {
    given(paid, partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, at: 2 }))
      .when(transferFailed({ pgCno: PG.card, at: 3 }))
      .then((record) => {
        expect(amountsOf(record)).toEqual([10000]);
        expect(detailsAmount(record)).toEqual([10000]);
        expect(record.status).toBe('refund_failed');
      });
  });

  it('skips a refund whose payout a 50 completed before it: the latest still waiting failed', () => {
    given(
      paid,
      partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, at: 2 }),
      partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 5000, at: 3 }),
      refund({ pgCno: PG.card, cancelPgCno: PG.cancel2, amount: 5000, at: 4 }),
    ).when(transferFailed({ pgCno: PG.card, at: 5 })).then((record) => expect(amountsOf(record)).toEqual([10000]));
  });

  it('is the latest of several waiting refunds', () => {
    given(
      paid,
      partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, at: 2 }),
      refund({ pgCno: PG.card, cancelPgCno: PG.cancel1, amount: 10000, at: 3 }),
      partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 4000, at: 4 }),
      partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel3, cancelAmount: 2500, at: 5 }),
    ).when(transferFailed({ pgCno: PG.card, at: 6 })).then((record) => expect(amountsOf(record)).toEqual([2500]));
  });

  it('keeps the amount when the refund is repeated and paid out after it (a later 50 settles the 51, the amount stays the one that failed)', () => {
    given(paid, partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, at: 2 }), transferFailed({ pgCno: PG.card, at: 3 }))
      .when(refund({ pgCno: PG.card, cancelPgCno: PG.cancel1, amount: 10000, at: 4 }))
      .then((record) => {
        expect(amountsOf(record)).toEqual([10000]);
        expect(record.status).not.toBe('refund_failed');
      });
  });

  it('is unknown (null, never 0) when no refund comes before it, or only refunds of another payment, or only one already paid out', () => {
    given(paid).when(transferFailed({ pgCno: PG.card, at: 3 })).then((record) => {
      expect(amountsOf(record)).toEqual([null]);
      expect(detailsAmount(record)).toEqual([null]);
    });
    given(paid, partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, at: 5 }))
      .when(transferFailed({ pgCno: PG.card, at: 3 }))
      .then((record) => expect(amountsOf(record)).toEqual([null]));
    const other = approval({ pgCno: PG.second, amount: 8000, at: 1 });
    given(paid, other, partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel1, cancelAmount: 8000, at: 2 }))
      .when(transferFailed({ pgCno: PG.card, at: 3 }))
      .then((record) => expect(amountsOf(record)).toEqual([null]));
    given(paid, partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, at: 2 }), refund({ pgCno: PG.card, amount: 10000, at: 2 }))
      .when(transferFailed({ pgCno: PG.card, at: 3 }))
      .then((record) => expect(amountsOf(record)).toEqual([null]));
  });

  it('follows a refund of a deposit, found by the deposit the refund names', () => {
    given(deposit({ pgCno: PG.vaccount, amount: 45000, at: 1 }), refund({ pgCno: PG.refund, depositPgCno: PG.vaccount, cancelPgCno: PG.cancel1, amount: 45000, at: 2 }))
      .when(transferFailed({ pgCno: PG.vaccount, at: 3 }))
      .then((record) => expect(amountsOf(record)).toEqual([45000]));
  });

  it('a 51 that states its amount keeps it', () => {
    given(paid, partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, at: 2 }))
      .when(transferFailed({ pgCno: PG.card, amount: 7000, at: 3 }))
      .then((record) => expect(amountsOf(record)).toEqual([7000]));
  });
});
