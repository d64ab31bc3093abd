import { OPTIONAL_JSON_FIELDS, OPTIONAL_UNIONPAY_FIELDS, isAmountField } from '../../src/notifications/fields';
import { validateNotification } from '../../src/notifications/schema';
import { approvalNotification, unionPayFields } from '../../src/simulator/notification-builders';

const jsonAmounts = Object.keys(OPTIONAL_JSON_FIELDS).filter(isAmountField);
const unionPayAmounts = Object.keys(OPTIONAL_UNIONPAY_FIELDS).filter(isAmountField);

describe('a negative amount is refused, in every amount field the catalogue knows', () => {
  it('the catalogue has the amounts the ledger reads', () => {
    expect(jsonAmounts).toEqual(expect.arrayContaining(['amount', 'cancelAmount', 'remainAmount', 'depositAmount', 'refundAmount']));
    expect(unionPayAmounts).toEqual(['amount']);
  });

  it.each(jsonAmounts)('%s: "-5000" is invalid', (name) => {
    expect(validateNotification({ ...approvalNotification(), [name]: '-5000' }, { mallIds: [] })).toEqual({ ok: false, reasons: [`${name}: amount must not be negative`] });
  });

  it('an amount field the catalogue does not list, named like one, is refused too', () => {
    expect(validateNotification({ ...approvalNotification(), cancelRemainAmount: '-1' }, { mallIds: [] })).toEqual({ ok: false, reasons: ['cancelRemainAmount: amount must not be negative'] });
  });

  it('UnionPay\'s amount: "-5000" is invalid', () => {
    expect(validateNotification(unionPayFields({ amount: '-5000' }), { mallIds: [] })).toEqual({ ok: false, reasons: ['amount: amount must not be negative'] });
  });

  it('zero stays a valid amount (a remainder after a full cancel)', () => {
    expect(validateNotification({ ...approvalNotification(), remainAmount: '0', cancelAmount: '000' }, { mallIds: [] }).ok).toBe(true);
  });
});
