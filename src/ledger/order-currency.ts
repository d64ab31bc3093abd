import type { OrderRecord } from './order-record';

/**
 * The currency an order's amounts are in: its expectation's, else the mall's default
 * (LEDGER_DEFAULT_CURRENCY), since the gateway's notifications state none. The console and the CLI
 * both show money in it.
 */
export function orderCurrency(record: Pick<OrderRecord, 'expected'> | null | undefined, defaultCurrency: string): string {
  return record?.expected?.currency ?? defaultCurrency;
}
