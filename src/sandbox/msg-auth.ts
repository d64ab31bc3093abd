import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The gateway authenticates a cancellation with HMAC-SHA256(key, `pgCno|shopTransactionId`),
 * sent as lowercase hex or base64 depending on the merchant's setting; both are accepted.
 */
export function msgAuthMatches(key: string, pgCno: string, shopTransactionId: string, given: string): boolean {
  const digest = createHmac('sha256', key).update(`${pgCno}|${shopTransactionId}`, 'utf8').digest();
  return [digest.toString('hex'), digest.toString('base64')].some((expected) => sameText(expected, given));
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `GATEWAY_SECRET_KEY_<MALLID>` overrides `GATEWAY_SECRET_KEY` for one mall, as in the service. */
export function secretKeyFor(env: NodeJS.ProcessEnv, mallId: string): string | undefined {
  return env[`GATEWAY_SECRET_KEY_${mallId.toUpperCase()}`] || env[`GATEWAY_SECRET_KEY_${mallId}`] || env.GATEWAY_SECRET_KEY || undefined;
}
