import { dedupKey, eventIdFor } from '../../src/notifications/dedup-key';
import { kstTimestamp } from '../../src/notifications/kst-date';
import { normalizeNotification } from '../../src/notifications/normalize';
import { validateNotification } from '../../src/notifications/schema';
import { approvalNotification, changeNotification, escrowNotification, unionPayFields } from '../../src/simulator/notification-builders';

const receipt = { receivedAt: '2026-11-21T03:00:00.123Z', sourceIp: '203.233.72.150', environment: 'production' as const };

function normalize(fields: Record<string, unknown>) {
  const valid = validateNotification(fields, { mallIds: [] });
  if (!valid.ok) throw new Error(valid.reasons.join('; '));
  return normalizeNotification(valid.value, receipt);
}

describe('normalized event', () => {
  it('makes the normalized event of docs/notifications.md from an approval', () => {
    const fields = approvalNotification({ amount: '12000', transactionDate: '20261121120000', statusCode: 'TS03', statusMessage: '매입요청' });
    const { event } = normalize(fields);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'payment.approved',
      notiType: '10',
      mallId: fields.mallId,
      pgCno: fields.pgCno,
      shopOrderNo: fields.shopOrderNo,
      cancelPgCno: null,
      resultCode: '0000',
      resultMessage: '정상처리',
      status: { code: 'TS03', message: '매입요청' },
      amount: 12000,
      occurredAt: '2026-11-21T12:00:00+09:00',
      receivedAt: receipt.receivedAt,
      basket: [],
      source: { ip: '203.233.72.150', environment: 'production' },
      data: fields,
    });
  });

  it('status is null when statusCode is absent or empty; amount is null when absent', () => {
    const { amount: _a, statusCode: _s, ...rest } = approvalNotification();
    expect(normalize(rest).event).toMatchObject({ status: null, amount: null });
    expect(normalize(approvalNotification({ statusCode: '' })).event.status).toBeNull();
  });

  it('the id is stable for the dedup key and differs per cancel and per escrow status', () => {
    const change = changeNotification();
    expect(normalize(change).event.id).toBe(normalize({ ...change, resMsg: 'other text' }).event.id);
    expect(normalize(change).event.id).not.toBe(normalize({ ...change, cancelPgCno: '99999999999999999999' }).event.id);
    const escrow = escrowNotification();
    expect(normalize(escrow).event.id).not.toBe(normalize({ ...escrow, statusCode: 'ES09' }).event.id);
  });

  it('event 70 maps its snake_case fields onto the common names', () => {
    const fields = unionPayFields({ amount: '33000' });
    const { event } = normalize(fields);
    expect(event).toMatchObject({
      type: 'unionpay.confirmed', mallId: fields.memb_id, pgCno: fields.cno, shopOrderNo: fields.order_no,
      resultCode: fields.res_cd, resultMessage: fields.res_msg, amount: 33000, occurredAt: null,
    });
  });

  it('an event 70 code in the JSON layout, or a JSON code in the form layout, is refused', () => {
    expect(validateNotification(approvalNotification({ notiType: '70' }), { mallIds: [] }).ok).toBe(false);
    expect(validateNotification(unionPayFields({ noti_type: '10' }), { mallIds: [] }).ok).toBe(false);
  });
});

describe('dedup key', () => {
  it('includes cancelPgCno and statusCode only when present, and cannot be forged with separators', () => {
    const base = { mallId: 'M', notiType: '20', pgCno: 'P', cancelPgCno: null, statusCode: null };
    expect(dedupKey(base)).toBe('["M","20","P","",""]');
    expect(dedupKey({ ...base, pgCno: 'P","C' })).not.toBe(dedupKey({ ...base, cancelPgCno: 'C' }));
    expect(eventIdFor(dedupKey(base))).toBe(eventIdFor(dedupKey({ ...base })));
  });
});

describe('KST dates', () => {
  it.each([
    ['20261121120000', '2026-11-21T12:00:00+09:00'],
    ['20261121', '2026-11-21T00:00:00+09:00'],
    ['2026-11-21 12:00:00', '2026-11-21T12:00:00+09:00'],
    ['20261332120000', null],
    ['20260230000000', null],
    ['tomorrow', null],
  ])('%s → %s', (input, expected) => {
    expect(kstTimestamp(input)).toBe(expected);
  });
});
