import { discrepancyId } from '../../src/ledger/fold/discrepancy-conditions';
import { ORDER, PG, approval, expectation, minute, partialCancel, resolution } from './ledger-fixtures';
import { compute, given, openKinds } from './ledger-specification';

const GRACE = 35;
const expected = expectation({ amount: 30000, received: 0 });
const first = { ...approval({ pgCno: PG.card, amount: 30000, at: 1 }), recordedAt: minute(1) };
const second = { ...approval({ pgCno: PG.second, amount: 30000, at: 2 }), recordedAt: minute(2) };
const third = { ...approval({ pgCno: '26112112000000000009', amount: 30000, at: 40 }), recordedAt: minute(40) };
const doubled = discrepancyId(ORDER, 'duplicate_payment', [first.id, second.id]);

describe('a discrepancy\'s life: opened once, resolved once', () => {
  it('a redelivery after an operator resolved it does not open it again', () => {
    const resolved = resolution(doubled, { received: 10 });
    const redelivered = { ...second, recordedAt: minute(20) };
    given(expected, first, second, resolved).when(redelivered).then((record) => {
      // Resolved, the two payments are still held: more than expected.
      expect(record.status).toBe('overpaid');
      expect(record.discrepancies).toEqual([expect.objectContaining({ id: doubled, openedAt: minute(2), resolvedAt: minute(10), resolvedBy: 'kim.operator' })]);
    });
  });

  it('new facts that show the problem again open a new discrepancy; the resolved one stays resolved', () => {
    given(expected, first, second, resolution(doubled, { received: 10 })).when(third).then((record) => {
      expect(record.status).toBe('discrepancy');
      expect(record.discrepancies.map((d) => [d.id, d.openedAt, d.resolvedBy])).toEqual([
        [doubled, minute(2), 'kim.operator'],
        [discrepancyId(ORDER, 'duplicate_payment', [first.id, second.id, third.id]), minute(40), null],
      ]);
    });
  });

  it('a third payment while the double payment is open supersedes it: the ledger closes the old one and opens the new', () => {
    given(expected, first, second).when(third).then((record) => {
      expect(record.discrepancies.map((d) => [d.eventIds.length, d.resolvedAt, d.resolvedBy])).toEqual([
        [2, minute(40), 'ledger'],
        [3, null, null],
      ]);
    });
  });

  it('an open discrepancy shows the figures as they are now', () => {
    const partialRefund = { ...partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 5 }), recordedAt: minute(5) };
    given(expected, first, second).when(partialRefund).then((record) => {
      expect(record.discrepancies).toEqual([expect.objectContaining({ id: doubled, details: { payments: 2, expected: 30000, largestPayment: 30000, remaining: 50000 }, resolvedAt: null })]);
    });
  });

  it('resolving twice: the first resolution stands', () => {
    const firstWord = resolution(doubled, { by: 'kim.operator', note: 'refunded', received: 10 });
    const later = { ...resolution(doubled, { by: 'lee.operator', note: 'again', received: 11 }), id: 'res_other' };
    given(expected, first, second, firstWord).when(later).then((record) => {
      expect(record.discrepancies[0]).toMatchObject({ resolvedAt: minute(10), resolvedBy: 'kim.operator', note: 'refunded' });
    });
  });

  it('a resolution stored before the discrepancy opened (another replica\'s clock behind) closes it when it opens', () => {
    given(expected, first, second).when(resolution(doubled, { received: 1.5 })).then((record) => {
      expect(record.discrepancies[0]).toMatchObject({ openedAt: minute(2), resolvedAt: minute(2), resolvedBy: 'kim.operator' });
    });
  });

  it('an operator\'s resolution of one the ledger already closed changes nothing', () => {
    const refundSecond = { ...partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel1, cancelAmount: 30000, remainAmount: 0, at: 5 }), recordedAt: minute(5) };
    given(expected, first, second, refundSecond).when(resolution(doubled, { received: 10 })).then((record) => {
      expect(record.discrepancies[0]).toMatchObject({ resolvedAt: minute(5), resolvedBy: 'ledger' });
    });
  });

  it('only facts of the order open a grace-period kind: a resolution does not restart the wait', () => {
    const paid = { ...approval({ pgCno: PG.card, amount: 10000, at: 1 }), recordedAt: minute(1) };
    const overCancel = { ...partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 15000, at: 2 }), recordedAt: minute(2) };
    const unrelated = resolution('dsc_unknown', { received: 30 });
    given(paid, overCancel).when(unrelated).then((record) => expect(record.discrepancies[0]).toMatchObject({ kind: 'over_cancel', openedAt: minute(2 + GRACE) }));
  });

  it('each new input restarts the wait: the sweep time follows the last change', () => {
    const paid = { ...approval({ pgCno: PG.card, amount: 10000, at: 1 }), recordedAt: minute(1) };
    const overCancel = { ...partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 15000, at: 2 }), recordedAt: minute(2) };
    const later = { ...partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 1000, at: 30 }), recordedAt: minute(30) };
    expect(compute([paid, overCancel, later], { now: 40 }).sweepAt).toBe(minute(30 + GRACE));
    const settled = compute([paid, overCancel, later], { now: 30 + GRACE });
    expect(openKinds(settled.record!)).toEqual(['over_cancel']);
    expect(settled.record!.discrepancies[0]).toMatchObject({ openedAt: minute(30 + GRACE), eventIds: [overCancel.id, later.id] });
  });

  it('a grace period of 0 opens the waiting kinds at once', () => {
    const paid = { ...approval({ pgCno: PG.card, amount: 10000, at: 1 }), recordedAt: minute(1) };
    const overCancel = { ...partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 15000, at: 2 }), recordedAt: minute(2) };
    const { record, sweepAt } = compute([paid, overCancel], { now: 2, settings: { graceSeconds: 0 } });
    expect(record!.discrepancies[0]).toMatchObject({ kind: 'over_cancel', openedAt: minute(2) });
    expect(sweepAt).toBeNull();
  });
});
