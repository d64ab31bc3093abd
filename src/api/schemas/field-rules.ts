import { z } from 'zod';
import { eucKrByteLength } from '../../euc-kr';

/**
 * The gateway's tables give lengths in bytes (EUC-KR, as for its notifications): a Korean
 * character is two. JSON Schema counts characters, so the document says both: `maxLength` (a
 * character is at least a byte) and `x-maxBytes`, the limit the API checks.
 */
export const text = (maxBytes: number) => {
  const message = `must be at most ${maxBytes} bytes (EUC-KR; a Korean character is 2 bytes)`;
  return z
    .string()
    .min(1)
    .refine((value) => eucKrByteLength(value) <= maxBytes, { message })
    // maxLength is implied by the byte limit (every character encodes to at least one byte), so
    // it is stated without a second check that could disagree with it on surrogate pairs.
    .meta({ description: `at most ${maxBytes} bytes in EUC-KR (a Korean character is 2 bytes)`, maxLength: maxBytes, 'x-maxBytes': maxBytes });
};

export const mallId = z.string().regex(/^[A-Za-z0-9]{1,8}$/, 'must be 1-8 letters or digits').meta({ description: 'merchant id (8 bytes)', example: 'T0001234' });

/**
 * The idempotency key: every resend carries the same one. Printable ASCII without spaces and
 * without the characters that would break the record's URL (/v1/commands/<id>): / ? # % and \.
 * One pattern, so the OpenAPI document states the whole rule.
 */
const shopTransactionIdText = z
  .string()
  .regex(/^[\x21\x22\x24\x26-\x2E\x30-\x3E\x40-\x5B\x5D-\x7E]{1,60}$/, 'must be 1-60 printable ASCII characters without spaces, / ? # % or \\');

/** Trades and wallet cancellations: the service makes a key when the caller sends none. */
export const optionalShopTransactionId = shopTransactionIdText.optional().meta({
  description: 'idempotency key: 1-60 printable ASCII characters except / ? # % \\; when absent the service generates one (32 hex digits), returned in the record',
  example: 'st-20261122-0001',
});

/** VAN calls: the caller names the key, which a net-cancel of the approval reuses. */
export const requiredShopTransactionId = shopTransactionIdText.meta({
  description: 'idempotency key, required: 1-60 printable ASCII characters except / ? # % \\; a net-cancel of an approval in doubt names it',
  example: 'st-20261122-0001',
});

const MAX_AMOUNT = 999_999_999_999;
const AMOUNT_MESSAGE = 'must be a positive integer in minor units (12.03 dollars is 1203)';

/**
 * A positive integer amount in minor units: 12.03 dollars is 1203. Numeric strings are accepted,
 * as the gateway's tables send strings. Written as the two shapes it accepts, so the document
 * says exactly that (12.03, 0, -5, "12.03" are refused).
 */
export const minorAmount = z
  .union(
    [
      z.int(AMOUNT_MESSAGE).min(1, AMOUNT_MESSAGE).max(MAX_AMOUNT, AMOUNT_MESSAGE),
      z.string().regex(/^0*[1-9]\d{0,11}$/, AMOUNT_MESSAGE).transform(Number),
    ],
    { error: (issue) => (issue.input === undefined ? `is required; ${AMOUNT_MESSAGE}` : AMOUNT_MESSAGE) },
  )
  .meta({ description: 'positive integer in minor units (12.03 dollars is 1203), or the same as a string of digits', example: 1203 });

export const httpUrl = (maxBytes: number) =>
  z.string().max(maxBytes).regex(/^https?:\/\/\S+$/, 'must be an http(s):// URL');
