import { discrepancyId } from '../../src/ledger/fold/discrepancy-conditions';
import { ORDER, PG, approval, deposit, expectation, partialCancel, resolution } from './ledger-fixtures';
import { compute, given } from './ledger-specification';

/** The status says what money the order holds against what was expected, whatever an operator decided about it. */
describe('underpaid, overpaid and paid', () => {
  const expected = expectation({ amount: 12000 });

  it('an underpaid order whose amount_mismatch is resolved reads underpaid, never paid', () => {
    const short = approval({ pgCno: PG.card, amount: 1200, at: 1 });
    const mismatch = discrepancyId(ORDER, 'amount_mismatch', [short.id]);
    given(expected).when(short).then({ status: 'discrepancy' });
    given(expected, short).when(resolution(mismatch, { received: 5, note: 'payment cancelled' })).then((record) => {
      expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'amount_mismatch', resolvedBy: 'kim.operator' })]);
      expect(record.status).toBe('underpaid');
    });
  });

  it('an overpaid order reads overpaid once its discrepancies are resolved', () => {
    const over = approval({ pgCno: PG.card, amount: 15000, at: 1 });
    const mismatch = discrepancyId(ORDER, 'amount_mismatch', [over.id]);
    given(expected, over).when(resolution(mismatch, { received: 5 })).then({ status: 'overpaid', approved: 15000 });
  });

  it('the payments and deposits held, added up, are what is compared: two halves are paid', () => {
    const half = approval({ pgCno: PG.card, amount: 6000, at: 1 });
    const other = deposit({ pgCno: PG.vaccount, amount: 6000, at: 2 });
    const { record } = compute([expected, half, other]);
    const open = record!.discrepancies.filter((d) => d.resolvedAt === null);
    const resolved = open.map((d, i) => resolution(d.id, { received: 10 + i }));
    given(expected, half, other).when(...resolved).then({ status: 'paid', approved: 6000, deposited: 6000, remaining: 12000 });
  });

  it('a payment cancelled in full no longer counts: pay, cancel in full, pay again the expected amount is paid', () => {
    const first = approval({ pgCno: PG.card, amount: 12000, at: 1 });
    const cancel = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 12000, remainAmount: 0, at: 2, statusCode: 'TS05' });
    given(expected, first, cancel).when(approval({ pgCno: PG.second, amount: 12000, at: 3 })).then({ status: 'paid', approved: 24000, cancelled: 12000 });
  });

  it('without an expectation any whole payment held is paid', () => {
    given().when(approval({ pgCno: PG.card, amount: 1200, at: 1 })).then({ status: 'paid' });
  });
});
