import { PG, approval, deposit, depositCancel, escrow, expectation, minute, partialCancel, refund, unionPay, walletCancellation } from './ledger-fixtures';
import { compute, given } from './ledger-specification';

describe('the order record', () => {
  it('an expected card payment paid in full reads paid, with the payment, its event and the expectation', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 5 });
    given(expectation({ amount: 30000 })).when(paid).then({
      status: 'paid',
      expected: { amount: 30000, currency: 'KRW', method: 'card', source: 'expectation', expiresAt: null },
      approved: 30000, cancelled: 0, remaining: 30000, deposited: 0,
      payments: [{ pgCno: PG.card, amount: 30000, cancelled: false, eventId: paid.id, at: '2026-11-21T12:05:00+09:00' }],
      events: [paid.id],
      discrepancies: [],
      updatedAt: minute(5),
    });
  });

  it('an order known only by its expectation awaits payment, or a deposit when the method is a virtual account', () => {
    given().when(expectation({ method: 'card' })).then({ status: 'awaiting_payment', approved: 0, remaining: 0, events: [] });
    given().when(expectation({ method: 'vaccount' })).then({ status: 'awaiting_deposit' });
  });

  it("an order whose every notification carries the simulator's mark is marked simulated; a real one carries no mark", () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
    expect(compute([paid]).record).not.toHaveProperty('simulated');
    given().when({ ...paid, simulator: true }).then({ simulated: true, status: 'paid' });
    given({ ...paid, simulator: true }).when({ ...partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 1000, remainAmount: 29000, at: 2 }), simulator: true }).then({ simulated: true });
  });

  it('one notification without the mark makes a simulated order real, whichever arrives first, and an expectation alone is no notification', () => {
    const first = { ...approval({ pgCno: PG.card, amount: 30000, at: 1 }), simulator: true as const };
    const second = { ...approval({ pgCno: PG.vaccount, amount: 30000, at: 2 }), simulator: true as const };
    given(first).when(second).then((record) => expect(record).toMatchObject({ simulated: true, status: 'discrepancy' }));
    // A later listed one (stepped onto the figures), an earlier one, a payment: each makes it real.
    const later = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 1000, remainAmount: 29000, at: 3 });
    for (const real of [later, approval({ pgCno: PG.card, amount: 30000, at: 0 }), approval({ pgCno: PG.second, amount: 3000, at: 3 })]) {
      given(first, second).when(real).then((record) => expect(record).not.toHaveProperty('simulated'));
    }
    expect(compute([expectation({ amount: 30000 })]).record).not.toHaveProperty('simulated');
    given(expectation({ amount: 30000 })).when(first).then({ simulated: true });
  });

  it('nothing known about an order is no record at all', () => {
    expect(compute([])).toEqual({ record: null, sweepAt: null });
  });

  it('a redelivered approval is one payment', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
    given(paid).when(paid).then({ approved: 30000, payments: [expect.objectContaining({ eventId: paid.id })], events: [paid.id] });
  });

  it('two approval events of one pgCno (two statuses) are one payment, the earlier by the gateway\'s time', () => {
    const first = approval({ pgCno: PG.card, amount: 30000, at: 1 });
    const again = { ...approval({ pgCno: PG.card, amount: 30000, at: 2 }), id: 'evt_00000000000000000000000000000000' };
    given(again).when(first).then({ approved: 30000, payments: [expect.objectContaining({ eventId: first.id })], events: [first.id, again.id] });
  });

  it('a UnionPay confirmation (event 70) is a payment dated when it was received', () => {
    const paid = unionPay({ pgCno: PG.card, amount: 33000, received: 3 });
    given(expectation({ amount: 33000 })).when(paid).then({ status: 'paid', approved: 33000, payments: [{ pgCno: PG.card, amount: 33000, cancelled: false, eventId: paid.id, at: minute(3) }] });
  });

  it.each([
    ['in the gateway\'s order', false],
    ['the second cancel first', true],
  ])('two partial cancels, delivered %s, leave the same remainder, listed by the gateway\'s time', (_label, reversed) => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 0 });
    const first = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 20000, at: 10, received: reversed ? 12 : 10 });
    const second = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 5000, remainAmount: 15000, at: 11, received: reversed ? 11 : 12 });
    given(expectation({ amount: 30000 }), paid).when(...(reversed ? [second, first] : [first, second])).then({
      status: 'partially_cancelled',
      approved: 30000, cancelled: 15000, remaining: 15000,
      cancels: [
        { cancelPgCno: PG.cancel1, pgCno: PG.card, amount: 10000, remainingAfter: 20000, eventId: first.id, at: '2026-11-21T12:10:00+09:00' },
        { cancelPgCno: PG.cancel2, pgCno: PG.card, amount: 5000, remainingAfter: 15000, eventId: second.id, at: '2026-11-21T12:11:00+09:00' },
      ],
      discrepancies: [],
    });
  });

  it('a cancel delivered before the approval it cancels counts once the approval comes', () => {
    const cancel = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 30000, remainAmount: 0, at: 2, received: 2 });
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 1, received: 3 });
    given(expectation({ amount: 30000 }), cancel).when(paid).then({ status: 'cancelled', approved: 30000, cancelled: 30000, remaining: 0, events: [paid.id, cancel.id], discrepancies: [] });
  });

  it('a refund reported as a change (20) and as completed (50) with the same cancelPgCno counts once', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 0 });
    const change = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 30000, remainAmount: 0, at: 5 });
    const done = refund({ pgCno: PG.card, cancelPgCno: PG.cancel1, amount: 30000, at: 6 });
    given(paid, done).when(change).then({ status: 'cancelled', cancelled: 30000, remaining: 0, cancels: [expect.objectContaining({ eventId: change.id, amount: 30000 })], events: [paid.id, change.id, done.id] });
  });

  it('a virtual-account deposit is deposited; its cancellation (31) takes it back out', () => {
    const paid = deposit({ pgCno: PG.vaccount, amount: 45000, at: 30 });
    const cancelled = depositCancel({ pgCno: PG.vaccount, amount: 45000, at: 40 });
    const expected = expectation({ amount: 45000, method: 'vaccount' });
    given(expected).when(paid).then({ status: 'paid', deposited: 45000, remaining: 45000, deposits: [{ pgCno: PG.vaccount, amount: 45000, cancelled: false, eventId: paid.id, at: '2026-11-21T12:30:00+09:00' }] });
    given(expected, paid).when(cancelled).then({ status: 'awaiting_deposit', deposited: 0, remaining: 0, cancelled: 0, deposits: [expect.objectContaining({ cancelled: true })], discrepancies: [] });
    // The deposit cancel delivered first: the same record.
    given(expected, cancelled).when(paid).then({ status: 'awaiting_deposit', deposited: 0, deposits: [expect.objectContaining({ cancelled: true })] });
  });

  it('escrow is the latest status by the gateway\'s time, whatever arrived last', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 0 });
    const shipping = escrow({ pgCno: PG.card, statusCode: 'ES02', at: 60, received: 90 });
    const delivered = escrow({ pgCno: PG.card, statusCode: 'ES03', at: 80, received: 85 });
    given(paid, delivered).when(shipping).then({ escrow: { pgCno: PG.card, statusCode: 'ES03', eventId: delivered.id, at: '2026-11-21T13:20:00+09:00' }, status: 'paid' });
  });

  it('a wallet cancellation shows as requested, at its latest state, and never counts as cancelled', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 0 });
    const pending = walletCancellation({ shopTransactionId: 'CXL-1', pgCno: PG.card, state: 'pending', received: 10 });
    const done = walletCancellation({ shopTransactionId: 'CXL-1', pgCno: PG.card, state: 'succeeded', received: 11 });
    given(paid, pending).when(done).then({ status: 'paid', cancelled: 0, remaining: 30000, cancellationsRequested: [{ shopTransactionId: 'CXL-1', pgCno: PG.card, state: 'succeeded' }] });
  });

  it('the status says cancelled once nothing remains, partially cancelled while something does', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 0 });
    given(paid).when(partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 1000, remainAmount: 29000, at: 1 })).then({ status: 'partially_cancelled', remaining: 29000 });
    given(paid).when(partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 30000, remainAmount: 0, at: 1, statusCode: 'TS05' })).then({ status: 'cancelled', remaining: 0 });
  });

  it('a notification the gateway reports as failed is listed but moves no money', () => {
    const declined = { ...approval({ pgCno: PG.card, amount: 30000, at: 0 }), resCd: 'E101' };
    given(expectation({ amount: 30000 })).when(declined).then({ status: 'awaiting_payment', approved: 0, payments: [], events: [declined.id] });
  });
});
