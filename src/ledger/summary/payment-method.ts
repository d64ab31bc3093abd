import type { Expected, Payment } from '../fold/order-record';

/**
 * The methods the day's money splits payments by: what the gateway reported where it did, the
 * expectation's method where it said nothing, 'unknown' where neither says.
 */
export const SUMMARY_METHODS = ['card', 'transfer', 'vaccount', 'mobile', 'prepaid', 'wallet', 'other', 'unknown'] as const;
export type SummaryMethod = (typeof SUMMARY_METHODS)[number];

/** The gateway's payment method codes (payMethodTypeCode, a UnionPay form's pay_type). */
const BY_GATEWAY_CODE: Readonly<Record<string, SummaryMethod>> = {
  '11': 'card',
  '21': 'transfer',
  '22': 'vaccount',
  '31': 'mobile',
  '50': 'prepaid',
  '60': 'wallet',
};

/**
 * A payment's method. The gateway's code wins over the shop's expectation: the shop says what it
 * offered, the gateway what was paid (a card payment of a shop that registered nothing is a card
 * payment). A code the list does not know is still the gateway's word: 'other', never the
 * expectation's guess.
 */
export function summaryMethodOf(payment: Pick<Payment, 'method'>, expected: Pick<Expected, 'method'> | null): SummaryMethod {
  if (payment.method !== undefined) return BY_GATEWAY_CODE[payment.method] ?? 'other';
  return expected?.method ?? 'unknown';
}
