import { minorUnitDigits } from '../money/format-money';
import { typedNumber, type TypedNumber } from './amount-text';

/** One reading of an amount typed into the search box: in the currency's minor units. */
export interface TypedAmount {
  amount: number;
  currency: string;
}

/** The ways people mark a currency, before or after the number (Latin letters in any case). */
const MARKS: Record<string, string> = { '₩': 'KRW', 원: 'KRW', WON: 'KRW', KRW: 'KRW', $: 'USD', US$: 'USD', USD: 'USD', 달러: 'USD' };
const BEFORE = /^(US\s*\$|\$|₩|[A-Za-z]{3})\s*/i;
const AFTER = /\s*(원|won|달러|US\s*\$|\$|₩|[A-Za-z]{3})$/i;

/**
 * The box's text read as money, as people write it: `12000`, `12,000`, `12000원`, `₩12,000`,
 * `￦12,000`, `１２０００`, `US$12.03`, `$12.03`, `12.03 USD`, `USD 12.03`, `1만2천원`, `1.2만원`.
 * Each reading is in minor units of its currency. A number without a currency is read in the
 * major unit of each currency the shop deals in (`12000`: ₩12,000 and $12,000.00, never $120.00;
 * `12.03`: $12.03 only, since won has no minor unit). With a currency, only in that one. Empty
 * when the text is no amount: two currencies, a bad grouping, more decimals than any currency
 * named or possible has, an unknown code (`ORD12000` is an order number).
 */
export function typedAmounts(text: string, defaultCurrency: string): TypedAmount[] {
  const typed = typedMoney(text, defaultCurrency);
  if (typed === null) return [];
  if (typed.currency !== null) return readIn(typed.number, typed.currency, true);
  return [...new Set(['KRW', 'USD', defaultCurrency])].flatMap((each) => readIn(typed.number, each, false));
}

/**
 * The text as an amount of one currency (a cancel's amount, for an order in `currency`): in its
 * minor units, the number read in that currency's major unit; null when the text is no amount of
 * it, or names another currency.
 */
export function typedAmountIn(text: string, currency: string): number | null {
  const typed = typedMoney(text, currency);
  if (typed === null || (typed.currency !== null && typed.currency !== currency)) return null;
  return readIn(typed.number, currency, typed.currency !== null)[0]?.amount ?? null;
}

/** The number and the one currency marked around it (null: none); null when the text is no amount. */
function typedMoney(text: string, defaultCurrency: string): { number: TypedNumber; currency: string | null } | null {
  // NFKC: full-width digits, signs and spaces (`１２，０００`, `￦`, `＄`) are the ASCII ones.
  let rest = text.normalize('NFKC').trim().replace(/\s+/g, ' ');
  const marks: string[] = [];
  // Up to two marks a side, as people pile them up: `USD $12.03`, `12,000 KRW원`.
  for (let i = 0; i < 2; i += 1) {
    const before = BEFORE.exec(rest);
    if (before) {
      marks.push(before[1]!);
      rest = rest.slice(before[0].length);
    }
    const after = AFTER.exec(rest);
    if (after && after.index > 0) {
      marks.push(after[1]!);
      rest = rest.slice(0, after.index);
    }
  }
  const currencies = new Set(marks.map((mark) => currencyOf(mark, defaultCurrency)));
  if (currencies.has(null) || currencies.size > 1) return null;
  const number = typedNumber(rest);
  return number === null ? null : { number, currency: [...currencies][0] ?? null };
}

/**
 * The number in `currency`'s minor units when it is exactly a whole number of them. A bare
 * number's written decimals must also fit the currency (`12.00` is dollars, not 12 won); a named
 * currency's trailing zeros are only how it was written (`₩12,000.00`).
 */
function readIn(number: TypedNumber, currency: string, named: boolean): TypedAmount[] {
  const digits = minorUnitDigits(currency);
  if (!named && number.writtenDecimals > digits) return [];
  const scaled = number.units * 10n ** BigInt(digits);
  const unit = 10n ** BigInt(number.scale);
  if (scaled % unit !== 0n) return [];
  const amount = scaled / unit;
  return amount <= BigInt(Number.MAX_SAFE_INTEGER) ? [{ amount: Number(amount), currency }] : [];
}

/** A mark, or a code the shop deals in (the gateway's two, and the default); null for any other. */
function currencyOf(mark: string, defaultCurrency: string): string | null {
  const known = MARKS[mark.toUpperCase().replace(/\s+/g, '')];
  if (known) return known;
  return mark.toUpperCase() === defaultCurrency ? defaultCurrency : null;
}
