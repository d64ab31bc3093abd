import { orderText } from '../../src/cli/order-text';
import { PG, approval, partialCancel } from '../ledger/ledger-fixtures';
import { compute } from '../ledger/ledger-specification';

describe('orders show: an order as text', () => {
  it('marks a payment its cancels took in full as cancelled, as it does a cancelled deposit', () => {
    const first = approval({ pgCno: PG.card, amount: 10000, at: 1 });
    const cancelFirst = partialCancel({ pgCno: PG.card, cancelPgCno: PG.cancel1, cancelAmount: 10000, remainAmount: 0, at: 2, statusCode: 'TS05' });
    const second = approval({ pgCno: PG.second, amount: 10000, at: 3 });
    const text = orderText(compute([first, cancelFirst, second]).record!, 'KRW');
    const payments = text.split('\n').filter((line) => line.startsWith('payment'));
    expect(payments).toHaveLength(2);
    expect(payments[0]).toContain(PG.card);
    expect(payments[0]).toContain('(cancelled)');
    expect(payments[1]).toContain(PG.second);
    expect(payments[1]).not.toContain('cancelled');
    expect(text.split('\n')[0]).toMatch(/: paid$/);
  });

  it('prints every time in KST, the ledger error\'s and the details\' included, never an instant as stored', () => {
    const record = { ...compute([approval({ pgCno: PG.card, amount: 10000, at: 1 })]).record!, status: 'ledger_error' as const, ledgerError: { error: 'unreadable fact', at: '2026-11-27T21:52:54.922Z' } };
    record.discrepancies = [{
      id: 'dsc_1', kind: 'payment_after_expiry', eventIds: [], openedAt: '2026-11-27T21:53:55.000Z', resolvedAt: null, resolvedBy: null, note: null,
      details: { pgCno: PG.card, at: '2026-11-28T06:53:54+09:00', expiresAt: '2026-11-27T21:52:54.922Z' },
    }];
    const text = orderText(record, 'KRW');
    expect(text).toContain('ledger error (2026-11-28 06:52:54 KST)');
    expect(text).toContain('at 2026-11-28 06:53:54 KST, expiresAt 2026-11-28 06:52:54 KST');
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
  });
});
