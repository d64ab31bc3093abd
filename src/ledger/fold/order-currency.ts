import type { OrderRecord } from './order-record';

/**
 * The currency an order's amounts are in: its expectation's, else the mall's default
 * (LEDGER_DEFAULT_CURRENCY), since the gateway's notifications state none. The console and the CLI
 * both show money in it.
 */
export function orderCurrency(record: Pick<OrderRecord, 'expected'> | null | undefined, defaultCurrency: string): string {
  return currencyOrDefault(record?.expected?.currency, defaultCurrency);
}

/**
 * The same rule for a list that read the expectation's currency with each row instead of the
 * order's record (the discrepancy list: `currencies` by discrepancy id, none for an order without
 * an expectation).
 */
export function currencyOrDefault(expectedCurrency: string | null | undefined, defaultCurrency: string): string {
  return expectedCurrency ?? defaultCurrency;
}
