import { z } from 'zod';
import { eucKrByteLength } from '../../notifications/euc-kr';

/** The gateway's tables give lengths in bytes (EUC-KR, as for its notifications): a Korean character is two. */
export const text = (maxBytes: number) =>
  z
    .string()
    .min(1)
    .refine((value) => eucKrByteLength(value) <= maxBytes, { message: `must be at most ${maxBytes} bytes (EUC-KR; a Korean character is 2 bytes)` })
    .meta({ description: `at most ${maxBytes} bytes` });

export const mallId = z.string().regex(/^[A-Za-z0-9]{1,8}$/, 'must be 1-8 letters or digits').meta({ description: 'merchant id (8 bytes)', example: 'T0001234' });

/** The idempotency key: every resend carries the same one. */
export const shopTransactionId = z
  .string()
  // Printable ASCII without the characters that would break the record's URL (/v1/commands/<id>).
  .regex(/^[\x21-\x7E]{1,60}$/, 'must be 1-60 printable ASCII characters without spaces')
  .refine((id) => !/[/?#%\\]/.test(id), 'must not contain / ? # % or \\')
  .meta({ description: 'idempotency key; generated when absent', example: 'st-20261122-0001' });

/** A positive integer amount in minor units: 12.03 dollars is 1203. Numeric strings are accepted, as the gateway's tables send strings. */
export const minorAmount = z
  .union([z.number(), z.string().regex(/^\d+$/, 'must be an integer in minor units (12.03 dollars is 1203)').transform(Number)])
  .pipe(z.number().int('must be an integer in minor units (12.03 dollars is 1203)').positive('must be positive').max(999_999_999_999))
  .meta({ description: 'positive integer in minor units', example: 1203 });

export const httpUrl = (maxBytes: number) =>
  z.string().max(maxBytes).regex(/^https?:\/\/\S+$/, 'must be an http(s):// URL');
