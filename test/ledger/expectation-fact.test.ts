import { expectationBody, orderParams } from '../../src/api/schemas/ledger-schema';
import { expectationConflict } from '../../src/ledger/fold/expectation-conflict';
import { expectationFact, sameExpectation, walletTradeExpectation } from '../../src/ledger/fold/expectation-fact';
import { ORDER, PG, approval, expectation, minute } from './ledger-fixtures';
import { given } from './ledger-specification';

const input = { amount: 30000, currency: 'KRW', method: 'card' as const, expiresAt: null };

describe('expectations', () => {
  it('a repeated PUT says nothing new and is not stored; another amount, method or expiry is', () => {
    const current = expectationFact(ORDER, input, minute(0));
    expect(sameExpectation(current, input)).toBe(true);
    expect(sameExpectation(current, { ...input, expiresAt: null })).toBe(true);
    expect(sameExpectation(current, { ...input, amount: 31000 })).toBe(false);
    expect(sameExpectation(current, { ...input, method: 'vaccount' })).toBe(false);
    expect(sameExpectation(null, input)).toBe(false);
    const expiring = expectationFact(ORDER, { ...input, expiresAt: '2026-11-21T12:30:00+09:00' }, minute(0));
    expect(sameExpectation(expiring, { ...input, expiresAt: '2026-11-21T03:30:00Z' })).toBe(true);
  });

  it('the latest expectation is the one in force: A, then B, then A again is A', () => {
    const a = expectation({ amount: 30000, received: 0 });
    const b = expectation({ amount: 20000, received: 1 });
    const aAgain = expectation({ amount: 30000, received: 2 });
    expect(aAgain.id).not.toBe(a.id);
    given(a, b).when(aAgain).then({ expected: expect.objectContaining({ amount: 30000 }) });
  });

  it('a wallet-a trade is one expectation for its shopTransactionId, paid by wallet', () => {
    const trade = walletTradeExpectation(ORDER, { shopTransactionId: 'TRD-1', totalAmount: 1203, currency: 'USD' }, minute(0));
    expect(walletTradeExpectation(ORDER, { shopTransactionId: 'TRD-1', totalAmount: 1203, currency: 'USD' }, minute(5)).id).toBe(trade.id);
    given().when(trade).then({ expected: { amount: 1203, currency: 'USD', method: 'wallet', source: 'wallet-a', expiresAt: null }, status: 'awaiting_payment' });
  });

  it('a PUT restating a wallet-a trade\'s amount or currency differently is a conflict; the same amount in the same currency is not', () => {
    const trade = walletTradeExpectation(ORDER, { shopTransactionId: 'TRD-1', totalAmount: 1203, currency: 'USD' }, minute(0));
    const refused = { reason: 'wallet_trade_amount', amount: 1203, currency: 'USD' };
    expect(expectationConflict([trade], { ...input, currency: 'USD', amount: 1200 })).toEqual(refused);
    expect(expectationConflict([trade], { ...input, currency: 'KRW', amount: 1203 })).toEqual(refused);
    expect(expectationConflict([trade], { ...input, currency: 'USD', amount: 1203 })).toBeNull();
  });

  it('changing the amount once the order has a payment is a conflict; before it, or without any expectation, it is not', () => {
    const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
    const current = expectation({ amount: 30000, received: 0 });
    expect(expectationConflict([current], { ...input, amount: 20000 })).toBeNull();
    expect(expectationConflict([current, paid], { ...input, amount: 20000 })).toEqual({ reason: 'already_paid', amount: 30000, currency: 'KRW', expiresAt: null });
    expect(expectationConflict([current, paid], input)).toBeNull();
    expect(expectationConflict([paid], { ...input, amount: 20000 })).toBeNull();
  });

  it('changing the currency once the order has a payment is a conflict, like the amount: 1203 USD is not 1203 KRW', () => {
    const dollars = { ...input, amount: 1203, currency: 'USD' };
    const current = expectation({ ...dollars, received: 0 });
    const paid = approval({ pgCno: PG.card, amount: 1203, at: 1 });
    expect(expectationConflict([current], { ...dollars, currency: 'KRW' })).toBeNull();
    expect(expectationConflict([current, paid], { ...dollars, currency: 'KRW' })).toEqual({ reason: 'already_paid', amount: 1203, currency: 'USD', expiresAt: null });
    expect(expectationConflict([current, paid], dollars)).toBeNull();
  });

  it('moving the expiry once the order has a payment is a conflict, like the amount: a late payment stays late', () => {
    const expiring = { ...input, expiresAt: '2026-11-21T12:10:00+09:00' };
    const current = expectation({ ...expiring, received: 0 });
    const late = approval({ pgCno: PG.card, amount: 30000, at: 15 });
    given(current).when(late).then((record) => expect(record.discrepancies.map((d) => d.kind)).toEqual(['payment_after_expiry']));
    const refused = { reason: 'already_paid', amount: 30000, currency: 'KRW', expiresAt: '2026-11-21T12:10:00+09:00' };
    expect(expectationConflict([current, late], { ...expiring, expiresAt: '2026-11-21T12:30:00+09:00' })).toEqual(refused);
    expect(expectationConflict([current, late], { ...expiring, expiresAt: null })).toEqual(refused);
    // The same instant written in UTC is the same expiry; before any payment the expiry may move.
    expect(expectationConflict([current, late], { ...expiring, expiresAt: '2026-11-21T03:10:00Z' })).toBeNull();
    expect(expectationConflict([current], { ...expiring, expiresAt: '2026-11-21T12:30:00+09:00' })).toBeNull();
  });
});

describe('the order in a PUT expectation', () => {
  it('measures shopOrderNo in EUC-KR bytes, as a notification\'s: 40 bytes is 20 Hangul, not 40', () => {
    expect(orderParams.safeParse({ mallId: 'T0001234', shopOrderNo: '주'.repeat(20) }).success).toBe(true);
    expect(orderParams.safeParse({ mallId: 'T0001234', shopOrderNo: 'A'.repeat(40) }).success).toBe(true);
    const refused = orderParams.safeParse({ mallId: 'T0001234', shopOrderNo: '주'.repeat(21) });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('must be at most 40 bytes (EUC-KR; a Korean character is 2 bytes)');
  });
});

describe('the amount in a PUT expectation', () => {
  it('is at most 12 digits, what the gateway\'s amount fields hold: a larger one could never be paid as asked', () => {
    expect(expectationBody.safeParse({ ...input, amount: 999_999_999_999 }).success).toBe(true);
    const refused = expectationBody.safeParse({ ...input, amount: 1_000_000_000_000 });
    expect(refused.error?.issues[0]?.message).toBe("must be at most 999999999999, what the gateway's 12-digit amount fields hold");
  });
});
