import { approvalNotification } from '../../src/simulator/notification-builders';
import { validateNotification } from '../../src/notifications/schema';

describe('over-long optional fields', () => {
  it("are warned about in the field catalogue's order, whatever the body's order", () => {
    const { customerName: _name, approvalNo: _no, ...rest } = approvalNotification();
    const body = { ...rest, customerName: '홍'.repeat(26), shopValue1: 'v'.repeat(65), approvalNo: 'a'.repeat(101), unknownField: 'u'.repeat(5000) };
    const result = validateNotification(body, { mallIds: [] });
    expect(result.ok).toBe(true);
    expect(result.ok && result.value.warnings).toEqual([
      'approvalNo: 101 EUC-KR bytes, more than 100',
      'shopValue1: 65 EUC-KR bytes, more than 64',
      'customerName: 52 EUC-KR bytes, more than 50',
    ]);
  });

  it('sit beside refusals without changing them', () => {
    const body = { ...approvalNotification(), cancelAmount: '12.5', statusMessage: 's'.repeat(101), amount: '9007199254740993' };
    const result = validateNotification(body, { mallIds: [] });
    expect(result).toEqual({
      ok: false,
      reasons: ["amount: amount is more than the gateway's 12-digit amount fields hold (at most 999999999999)", 'cancelAmount: amount must be an integer string'],
    });
  });
});
