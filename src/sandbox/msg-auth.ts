import { timingSafeEqual } from 'node:crypto';
import { msgAuthValue } from '../gateway/msg-auth';

/**
 * The gateway authenticates a cancellation with HMAC-SHA256(key, `pgCno|shopTransactionId`),
 * sent as lowercase hex or base64 depending on the merchant's setting; both are accepted.
 * The expected value comes from the service's own function, so the two cannot drift apart.
 */
export function msgAuthMatches(key: string, pgCno: string, shopTransactionId: string, given: string): boolean {
  return (['hex', 'base64'] as const).some((encoding) => sameText(msgAuthValue(key, pgCno, shopTransactionId, encoding), given));
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
