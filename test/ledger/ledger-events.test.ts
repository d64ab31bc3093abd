import { ledgerEvents } from '../../src/ledger/fold/ledger-events';
import { ledgerEventSchema } from '../../src/ledger/fold/ledger-event-schema';
import { PG, approval, expectation, minute, partialCancel, resolution } from './ledger-fixtures';
import { compute } from './ledger-specification';
import type { LedgerFact } from '../../src/ledger/fold/ledger-facts';

const record = (facts: LedgerFact[], now = 24 * 60) => {
  const computed = compute(facts, { now }).record;
  if (computed === null) throw new Error('no record');
  return computed;
};

const expected = expectation({ amount: 30000, received: 0 });
const paid = { ...approval({ pgCno: PG.card, amount: 30000, at: 1 }), recordedAt: minute(1) };
const tampered = { ...approval({ pgCno: PG.card, amount: 3000, at: 1 }), recordedAt: minute(1) };

describe('the events a recomputation sends', () => {
  it('figures that move without a status change send order.updated, with the time of the change; every event fits its schema', () => {
    const first = record([expected, paid, partialCancel({ pgCno: PG.card, cancelPgCno: 'PG-CANCEL-1', cancelAmount: 5000, remainAmount: 25000, at: 2 })]);
    const second = record([expected, paid, partialCancel({ pgCno: PG.card, cancelPgCno: 'PG-CANCEL-1', cancelAmount: 5000, remainAmount: 25000, at: 2 }), partialCancel({ pgCno: PG.card, cancelPgCno: 'PG-CANCEL-2', cancelAmount: 4000, remainAmount: 21000, at: 3 })]);
    expect(first.status).toBe(second.status);
    const events = ledgerEvents(first, second);
    expect(events).toEqual([{
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'order.updated',
      at: second.updatedAt,
      order: expect.objectContaining({ status: 'partially_cancelled', cancelled: 9000, remaining: 21000, currency: 'KRW', expected: 30000 }),
    }]);
    for (const event of [...events, ...ledgerEvents(null, second), ...ledgerEvents(record([expected]), record([expected, tampered]))]) {
      expect(ledgerEventSchema.parse(event)).toEqual(event);
    }
    // Nothing moved: nothing sent.
    expect(ledgerEvents(second, second)).toEqual([]);
  });

  it('an order seen for the first time changes status from null', () => {
    const events = ledgerEvents(null, record([expected]));
    expect(events).toEqual([{
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'order.status_changed',
      at: minute(0),
      from: null,
      to: 'awaiting_payment',
      order: { mallId: 'T0001234', shopOrderNo: 'ORD-LEDGER-1', status: 'awaiting_payment', approved: 0, cancelled: 0, remaining: 0, deposited: 0, currency: 'KRW', expected: 30000 },
    }]);
  });

  it('a payment moves the order from awaiting_payment to paid', () => {
    const events = ledgerEvents(record([expected]), record([expected, paid]));
    expect(events).toEqual([expect.objectContaining({ type: 'order.status_changed', from: 'awaiting_payment', to: 'paid', order: expect.objectContaining({ status: 'paid', approved: 30000, remaining: 30000 }) })]);
  });

  it('an opening sends the discrepancy with the order\'s figures, then the status change', () => {
    const next = record([expected, tampered]);
    const events = ledgerEvents(record([expected]), next);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
        type: 'ledger.discrepancy',
        at: minute(1),
        discrepancy: next.discrepancies[0],
        order: { mallId: 'T0001234', shopOrderNo: 'ORD-LEDGER-1', status: 'discrepancy', approved: 3000, cancelled: 0, remaining: 3000, deposited: 0, currency: 'KRW', expected: 30000 },
      },
      expect.objectContaining({ type: 'order.status_changed', from: 'awaiting_payment', to: 'discrepancy' }),
    ]);
    expect(next.discrepancies[0]).toMatchObject({ kind: 'amount_mismatch', details: { expected: 30000, notified: 3000 } });
  });

  it('a retried transaction computes the same events with the same ids', () => {
    const before = record([expected]);
    expect(ledgerEvents(before, record([tampered, expected]))).toEqual(ledgerEvents(before, record([expected, tampered, tampered])));
  });

  it('a redelivery, or a recomputation that changes nothing, sends nothing', () => {
    const now = record([expected, tampered]);
    expect(ledgerEvents(now, record([expected, tampered, tampered]))).toEqual([]);
  });

  it('a resolution sends the status change and no second opening: to underpaid, never to paid, since the order holds less than expected', () => {
    const open = record([expected, tampered]);
    const closed = record([expected, tampered, resolution(open.discrepancies[0]!.id, { received: 5 })]);
    expect(ledgerEvents(open, closed)).toEqual([expect.objectContaining({ type: 'order.status_changed', from: 'discrepancy', to: 'underpaid' })]);
  });

  it('the same two statuses reached again later are a new event, not a duplicate the outbox would drop', () => {
    const wrongRemainder = { ...partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 25000, at: 2 }), recordedAt: minute(2) };
    const facts: LedgerFact[] = [expected, paid, wrongRemainder];
    const waiting = record(facts, 10);
    const firstAlarm = record(facts, 2 + 35);
    const firstDiscrepancy = firstAlarm.discrepancies[0]!.id;
    facts.push(resolution(firstDiscrepancy, { received: 40 }));
    const firstResolved = record(facts, 41);
    facts.push({ ...partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel2, cancelAmount: 1000, remainAmount: 1, at: 50 }), recordedAt: minute(50) });
    const waitingAgain = record(facts, 51);
    const secondAlarm = record(facts, 50 + 35);

    const first = ledgerEvents(waiting, firstAlarm);
    const second = ledgerEvents(waitingAgain, secondAlarm);
    expect(ledgerEvents(firstAlarm, firstResolved)).toEqual([expect.objectContaining({ from: 'discrepancy', to: 'partially_cancelled' })]);
    expect(first.map((e) => e.type)).toEqual(['ledger.discrepancy', 'order.status_changed']);
    expect(second.map((e) => e.type)).toEqual(['ledger.discrepancy', 'order.status_changed']);
    expect([first[1], second[1]]).toEqual([
      expect.objectContaining({ from: 'partially_cancelled', to: 'discrepancy' }),
      expect.objectContaining({ from: 'partially_cancelled', to: 'discrepancy' }),
    ]);
    expect(first[1]!.id).not.toBe(second[1]!.id);
    expect(first[0]!.id).not.toBe(second[0]!.id);
  });
});
