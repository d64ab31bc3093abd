import { refusalFact } from '../../src/ledger/fold/refusal-fact';
import { statedNotiType } from '../../src/notifications/stated-noti-type';

describe('the event code a decoded body states', () => {
  it('is the JSON notiType, or the UnionPay form\'s noti_type, as sent', () => {
    expect(statedNotiType({ notiType: '10', pgCno: 'PG1' })).toBe('10');
    expect(statedNotiType({ noti_type: '70', cno: 'PG1' })).toBe('70');
    expect(statedNotiType({ notiType: 10 })).toBe(10);
    expect(statedNotiType({ pgCno: 'PG1' })).toBeUndefined();
  });

  it('is read from the field the layout names it by, as the validation reads it, when a form carries a JSON name too', () => {
    const form = { noti_type: '70', notiType: '10' };
    expect(statedNotiType(form)).toBe('70');
    // The refused body's fact names the code the form states.
    expect(refusalFact({ ...form, memb_id: 'T0001234', order_no: 'ORD-1' }, 1, '2026-11-21T03:00:00.000Z')?.fact.notiType).toBe('70');
  });
});
