import { kstTime } from '../console/format';
import { isAmountDetail } from '../ledger/fold/discrepancy-details';
import { formatMoney } from '../money/format-money';

export { currencyOrDefault, orderCurrency } from '../ledger/fold/order-currency';

/** An amount as money (`₩12,000`, `$12.03`); `?` for one the ledger could not read. */
export function moneyText(minor: number | null | undefined, currency: string): string {
  return minor === null || minor === undefined ? '?' : formatMoney(minor, currency);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** `expected ₩30,000, notified ₩3,000`: a discrepancy's details for a reader. */
export function detailsText(details: Record<string, unknown>, currency: string): string {
  return Object.entries(details)
    .map(([name, value]) => {
      if (typeof value === 'number' && isAmountDetail(name)) return `${name} ${formatMoney(value, currency)}`;
      if (typeof value === 'string' && ISO_TIME.test(value)) return `${name} ${kstTime(value)}`;
      return `${name} ${value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value)}`;
    })
    .join(', ');
}
