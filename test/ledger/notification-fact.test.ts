import { minorUnits } from '../../src/ledger/fold/minor-units';
import { notificationFact } from '../../src/ledger/fold/notification-fact';
import type { NormalizedEvent } from '../../src/notifications/normalized-event';
import { normalizeNotification } from '../../src/notifications/normalize';
import { validateNotification } from '../../src/notifications/schema';
import {
  approvalNotification, basketApprovalNotification, changeNotification, depositNotification, escrowNotification, refundNotification, transferFailedNotification,
} from '../../src/simulator/notification-builders';

const receipt = { receivedAt: '2026-11-21T03:00:00.123Z', sourceIp: '203.233.72.150', environment: 'production' as const };

function normalized(fields: Record<string, string>, simulator = false): NormalizedEvent {
  const valid = validateNotification(fields, { mallIds: [] });
  if (!valid.ok) throw new Error(valid.reasons.join('; '));
  return normalizeNotification(valid.value, { ...receipt, simulator }).event;
}

describe('a notification as the ledger keeps it', () => {
  it('keeps ids, codes, amounts and times, and none of the card, account or buyer fields', () => {
    const event = normalized(approvalNotification({ shopOrderNo: 'ORD-1', pgCno: '26112112000000000001', amount: '30000', transactionDate: '20261121120000' }));
    const made = notificationFact(event);
    expect(made).toEqual({
      order: { mallId: 'T0001234', shopOrderNo: 'ORD-1' },
      fact: {
        kind: 'notification', id: event.id, at: '2026-11-21T12:00:00+09:00', recordedAt: receipt.receivedAt,
        notiType: '10', pgCno: '26112112000000000001', cancelPgCno: null, resCd: '0000', statusCode: 'TS03',
        amount: 30000, cancelAmount: null, remainAmount: null,
        occurredAt: '2026-11-21T12:00:00+09:00', receivedAt: receipt.receivedAt, payMethod: '11',
      },
    });
    const kept = JSON.stringify(made);
    for (const personal of ['5361-48**-****-1234', '홍길동', '01012345678', '비씨카드']) expect(kept).not.toContain(personal);
  });

  it("keeps the gateway's payment method code as sent, and none when the body names none", () => {
    expect(notificationFact(normalized(approvalNotification({ payMethodTypeCode: '60' })))!.fact.payMethod).toBe('60');
    const { payMethodTypeCode: _none, ...unnamed } = approvalNotification();
    expect(notificationFact(normalized(unnamed))!.fact).not.toHaveProperty('payMethod');
  });

  it("marks the fact the simulator's only when the request carried its checked mark, never for what the body says", () => {
    expect(notificationFact(normalized(approvalNotification(), true))!.fact.simulator).toBe(true);
    expect(normalized(approvalNotification(), true).source).toMatchObject({ simulator: true });
    expect(notificationFact(normalized(approvalNotification()))!.fact).not.toHaveProperty('simulator');
    for (const forged of [{ simulator: 'noti-receiver' }, { simulated: 'true' }, { simulator: 'true', shopValue6: 'noti-receiver' }]) {
      const event = normalized(approvalNotification(forged));
      expect(event.source).not.toHaveProperty('simulator');
      expect(notificationFact(event)!.fact).not.toHaveProperty('simulator');
      expect(notificationFact(event)!.fact).not.toHaveProperty('simulated');
    }
  });

  it("reads a cancel's amount and what it leaves from the gateway's cancelRemainAmount, never a prepaid balance beside it", () => {
    const fact = notificationFact(normalized(changeNotification({ cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000' })))!.fact;
    expect(fact).toMatchObject({ notiType: '20', cancelAmount: 10000, remainAmount: 20000, cancelPgCno: expect.stringMatching(/^\d{20}$/) });
    // remainAmount is a prepaid card's balance in the gateway's document: cancelRemainAmount wins over it.
    const prepaid = notificationFact(normalized({ ...changeNotification({ cancelRemainAmount: '19000' }), remainAmount: '500' }))!.fact;
    expect(prepaid.remainAmount).toBe(19000);
  });

  it('still reads remainAmount as the remainder of a stored event 20 that has no cancelRemainAmount (as the simulator and sandbox sent before)', () => {
    const { cancelRemainAmount: _gone, ...older } = changeNotification({ cancelAmount: '10000', amount: '10000' });
    const fact = notificationFact(normalized({ ...older, remainAmount: '20000' }))!.fact;
    expect(fact.remainAmount).toBe(20000);
  });

  it("the simulator's event 20 names the remainder as the gateway does, and its approval the gateway's transactionDate", () => {
    expect(changeNotification()).toHaveProperty('cancelRemainAmount');
    expect(changeNotification()).not.toHaveProperty('remainAmount');
    expect(approvalNotification()).toHaveProperty('transactionDate');
    expect(approvalNotification()).not.toHaveProperty('approvalDate');
  });

  it('takes the event\'s own time, else the time it was received', () => {
    const { transactionDate: _dropped, ...undated } = approvalNotification();
    expect(notificationFact(normalized({ ...undated, transactionDate: '' }))!.fact).toMatchObject({ at: receipt.receivedAt, occurredAt: null });
  });

  it('a missing amount is null, never 0 or NaN; a deposit falls back to depositAmount', () => {
    const { amount: _gone, ...noAmount } = approvalNotification();
    expect(notificationFact(normalized(noAmount))!.fact.amount).toBeNull();
    const { amount: _also, ...deposit } = depositNotification({ depositAmount: '45000' });
    expect(notificationFact(normalized(deposit))!.fact.amount).toBe(45000);
  });

  it('an amount that is not an integer is null, whatever reached the ledger', () => {
    const event = normalized(approvalNotification());
    const fact = notificationFact({ ...event, amount: 12000.5, data: { ...event.data, cancelAmount: '1.5', remainAmount: '9007199254740993' } })!.fact;
    expect(fact).toMatchObject({ amount: null, cancelAmount: null, remainAmount: null });
  });

  it('keeps event 40\'s escrow status and event 51\'s bank failure code', () => {
    expect(notificationFact(normalized(escrowNotification({ statusCode: 'ES03' })))!.fact).toMatchObject({ notiType: '40', statusCode: 'ES03' });
    expect(notificationFact(normalized(transferFailedNotification({ resCd: 'B102', amount: '12000' })))!.fact).toMatchObject({ notiType: '51', resCd: 'B102', amount: 12000 });
  });

  it('keeps the deposit a refund names and a basket\'s product pgCnos, and adds neither field when the body has none', () => {
    const refunded = notificationFact(normalized(refundNotification({ depositPgCno: '26112112000000000003' })))!.fact;
    expect(refunded.depositPgCno).toBe('26112112000000000003');
    const basket = notificationFact(normalized(basketApprovalNotification(2, { productPgCno1: '26112112000000000021', productPgCno2: '26112112000000000022' })))!.fact;
    expect(basket.productPgCnos).toEqual(['26112112000000000021', '26112112000000000022']);
    const plain = notificationFact(normalized(approvalNotification()))!.fact;
    expect(plain).not.toHaveProperty('depositPgCno');
    expect(plain).not.toHaveProperty('productPgCnos');
  });

  it('an escrow deposit (40) without amount falls back to depositAmount, as a 30 does', () => {
    expect(notificationFact(normalized(escrowNotification({ statusCode: 'ES04', depositAmount: '45000' })))!.fact.amount).toBe(45000);
  });

  it('a notification that names no order belongs to none', () => {
    expect(notificationFact({ ...normalized(approvalNotification()), shopOrderNo: null })).toBeNull();
  });
});

describe('minor units', () => {
  it.each([
    ['30000', 30000], [' 30000 ', 30000], ['-500', -500], [30000, 30000],
    ['', null], ['12.5', null], ['1e4', null], ['9007199254740993', null], [12.5, null], [Number.NaN, null], [null, null], [undefined, null],
  ])('%p is %p', (input, expected) => {
    expect(minorUnits(input)).toBe(expected);
  });
});
