import type { OrderSummary } from './ledger-event-schema';
import type { OrderRecord } from './order-record';

/** The figures events and lists carry (their `order`), with the expectation's currency and amount. */
export function orderSummary(record: OrderRecord): OrderSummary {
  const { mallId, shopOrderNo, status, approved, cancelled, remaining, deposited, expected } = record;
  return {
    mallId, shopOrderNo, status, approved, cancelled, remaining, deposited, currency: expected?.currency ?? null, expected: expected?.amount ?? null,
    // Only while simulated: the events of every real order stay exactly as they were.
    ...(record.simulated === true && { simulated: true as const }),
  };
}
