import { kstTime } from '../console/format';
import type { OrderRecord } from '../ledger/order-record';
import { formatMoney } from '../money/format-money';

/**
 * The currency an order's amounts are in: its expectation's, else the mall's default
 * (LEDGER_DEFAULT_CURRENCY), since the gateway's notifications state none.
 */
export function orderCurrency(record: Pick<OrderRecord, 'expected'> | null, defaultCurrency: string): string {
  return record?.expected?.currency ?? defaultCurrency;
}

/** An amount as money (`₩12,000`, `$12.03`); `?` for one the ledger could not read. */
export function moneyText(minor: number | null | undefined, currency: string): string {
  return minor === null || minor === undefined ? '?' : formatMoney(minor, currency);
}

/** The details of a discrepancy that are amounts of the order's money; the others are ids, counts, codes and times. */
const AMOUNT_DETAILS = new Set(['expected', 'notified', 'largestPayment', 'remaining', 'approved', 'deposited', 'cancelled', 'computed', 'amount']);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** `expected ₩30,000, notified ₩3,000`: a discrepancy's details for a reader. */
export function detailsText(details: Record<string, unknown>, currency: string): string {
  return Object.entries(details)
    .map(([name, value]) => {
      if (typeof value === 'number' && AMOUNT_DETAILS.has(name)) return `${name} ${formatMoney(value, currency)}`;
      if (typeof value === 'string' && ISO_TIME.test(value)) return `${name} ${kstTime(value)}`;
      return `${name} ${value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value)}`;
    })
    .join(', ');
}
