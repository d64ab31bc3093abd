import { createHash } from 'node:crypto';
import { bodyHash, dedupKey, eventIdFor } from '../../src/notifications/dedup-key';
import { approvalNotification } from '../../src/simulator/notification-builders';

/** The canonical form stored hashes were made with: redeliveries of old notifications must still match. */
function storedForm(fields: Record<string, unknown>): string {
  const canonical = JSON.stringify(Object.keys(fields).sort().map((k) => [k, fields[k]]));
  return createHash('sha256').update(canonical).digest('hex');
}

describe('bodyHash', () => {
  it('hashes the same canonical form as the rows already stored', () => {
    const odd: Record<string, unknown> = { Zeta: '1', zeta: '2', _a: '3', 'ü': '4', '😀': '5', '': '6', a1: '7', a10: '8', a9: '9', nested: { b: 1, a: [2] } };
    const many: Record<string, unknown> = {};
    for (let i = 0; i < 300; i += 1) many[`f${(i * 7919) % 300}`] = String(i);
    for (const fields of [approvalNotification(), odd, many, {}]) expect(bodyHash(fields)).toBe(storedForm(fields));
  });

  it('event ids are the ones already stored and forwarded: sha256 of the dedup key', () => {
    const key = dedupKey({ mallId: 'T0001234', notiType: '20', pgCno: '20261121000000000001', cancelPgCno: '취소1', statusCode: null });
    expect(eventIdFor(key)).toBe(`evt_${createHash('sha256').update(key).digest('hex').slice(0, 32)}`);
  });

  it('does not depend on the order of the fields', () => {
    const fields = approvalNotification();
    const reversed = Object.fromEntries(Object.entries(fields).reverse());
    expect(bodyHash(reversed)).toBe(bodyHash(fields));
  });
});
