import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How this receiver's own simulator (`npm run simulate`) proves a notification is its own, so the
 * ledger can keep its made-up orders out of the money and the alerts: an HMAC-SHA256 of the raw
 * body in this header, keyed by a key derived from a secret only the receiver and its operators
 * hold (API_TOKEN or ADMIN_TOKEN). Nothing else a request carries may mark an order simulated:
 * the gateway signs nothing, so its body and headers are whatever a sender within the allowed
 * addresses writes, and a field in the body would let any such sender silence an order's alarm.
 */
export const SIMULATOR_MARK_HEADER = 'x-noti-receiver-simulator';

/** A label of its own, so the key signs nothing else the token could sign and the mark never shows the token. */
const KEY_LABEL = 'noti-receiver simulator mark v1';

export function simulatorKey(secret: string): Buffer {
  return createHmac('sha256', secret).update(KEY_LABEL, 'utf8').digest();
}

/** The header's value for a body: lowercase hex, over the exact bytes sent. */
export function simulatorMark(key: Buffer, body: Buffer): string {
  return createHmac('sha256', key).update(body).digest('hex');
}

/**
 * True when the header holds the mark of these very bytes under one of the keys. Compared in
 * constant time, so a sender cannot learn the mark a byte at a time; a header sent twice, or a
 * value of the wrong length, marks nothing.
 */
export function carriesSimulatorMark(keys: readonly Buffer[], body: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/i.test(header)) return false;
  const given = Buffer.from(header, 'hex');
  let matched = false;
  for (const key of keys) if (timingSafeEqual(createHmac('sha256', key).update(body).digest(), given)) matched = true;
  return matched;
}
