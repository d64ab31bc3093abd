import type { GatewayStatus } from './gateway-rows';

/**
 * A list's status text as ours. Korean portals write 승인/정상/완료 for a payment that stands,
 * 취소/전체취소 for one cancelled whole, 부분취소 for a part; Toss's English codes (DONE, CANCELED,
 * PARTIAL_CANCELED, ABORTED) say the same. A part cancel is checked before a cancel, and a
 * failure before either, since 「취소실패」 is a cancel that did not happen.
 */
export function gatewayStatus(text: string): GatewayStatus {
  const plain = text.normalize('NFKC').replace(/\s/g, '').toLowerCase();
  if (plain === '') return 'other';
  if (/실패|오류|거절|failed|aborted|expired/.test(plain)) return 'failed';
  if (/부분취소|partial_?cancel/.test(plain)) return 'partially_cancelled';
  if (/취소|cancel/.test(plain)) return 'cancelled';
  if (/승인|정상|완료|^done$|^paid$|^approved$/.test(plain)) return 'approved';
  return 'other';
}

/** A row is a cancel when its status or its entry type (거래구분) says 취소. */
export function saysCancel(text: string | null): boolean {
  return text !== null && /취소|cancel/i.test(text);
}
