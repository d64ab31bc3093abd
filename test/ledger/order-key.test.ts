import { orderKeyText } from '../../src/ledger/fold/order-key';

describe("an order's key as text", () => {
  it('is one text for one key and two for two keys, whatever separator-like characters either part holds', () => {
    const keys = [
      { mallId: 'T0001234', shopOrderNo: 'A/B' },
      { mallId: 'T0001234/A', shopOrderNo: 'B' },
      { mallId: 'T0001234', shopOrderNo: 'A\u0000B' },
      { mallId: 'T0001234\u0000A', shopOrderNo: 'B' },
      { mallId: 'T0001234', shopOrderNo: 'A","B' },
      { mallId: 'T0001234","A', shopOrderNo: 'B' },
    ];
    expect(new Set(keys.map(orderKeyText)).size).toBe(keys.length);
    expect(orderKeyText({ mallId: 'T0001234', shopOrderNo: 'A/B' })).toBe(orderKeyText({ shopOrderNo: 'A/B', mallId: 'T0001234' }));
  });
});
