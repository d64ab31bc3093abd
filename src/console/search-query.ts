import { minorUnitDigits } from '../money/format-money';

/** An amount typed into the search box: in minor units, and the currency it named (null: none named). */
export interface TypedAmount {
  amount: number;
  currency: string | null;
}

const SYMBOLS: Record<string, string> = { '₩': 'KRW', '￦': 'KRW', '$': 'USD', '원': 'KRW', WON: 'KRW' };
/** An optional currency before, digits (grouped by commas or not), optional decimals, an optional currency after. */
const MONEY = /^([₩￦$]|[A-Za-z]{3})?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*(원|won|[A-Za-z]{3})?$/i;

/**
 * The box's text read as money, as people write it: `12000`, `12,000`, `12000원`, `₩12,000`,
 * `12,000 원`, `$12.03` (1203 in USD's minor unit), `USD 12.03`. Without a currency, the amount is
 * in `defaultCurrency`'s major unit (LEDGER_DEFAULT_CURRENCY: `12000` is 12,000 won). Null when
 * the text is no amount: more decimals than the currency has, two currencies, a bad grouping.
 */
export function typedAmount(text: string, defaultCurrency: string): TypedAmount | null {
  const match = MONEY.exec(text.trim());
  if (!match) return null;
  const [, before, whole, decimals, after] = match;
  const named = [before, after].filter((part): part is string => part !== undefined).map((part) => currencyOf(part, defaultCurrency));
  if (named.includes(null) || (named.length === 2 && named[0] !== named[1])) return null;
  const currency = (named[0] as string | undefined) ?? null;
  const digits = minorUnitDigits(currency ?? defaultCurrency);
  const fraction = decimals ?? '';
  if (fraction.length > digits) return null;
  const amount = Number(`${whole!.replaceAll(',', '')}${fraction.padEnd(digits, '0')}`);
  return Number.isSafeInteger(amount) ? { amount, currency } : null;
}

/** A symbol, or a code the shop deals in (the gateway's two, and the default): `ORD12000` is an order number, not 12,000 in "ORD". */
function currencyOf(text: string, defaultCurrency: string): string | null {
  const symbol = SYMBOLS[text.toUpperCase()] ?? SYMBOLS[text];
  if (symbol) return symbol;
  const code = text.toUpperCase();
  return code === 'KRW' || code === 'USD' || code === defaultCurrency ? code : null;
}
