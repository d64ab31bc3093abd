/**
 * Money as a person reads it. The gateway, the ledger and the APIs keep amounts as integers in the
 * currency's minor unit (12.03 dollars is 1203; KRW has no minor unit, so 12000 is 12,000 won).
 * Shown bare, such an integer can be misread by a factor of 100, so every page and every CLI line
 * goes through here: the currency's own number of decimals (from `Intl`, not a table of ours), the
 * reader's locale for separators and symbol, and exact decimal text (never a float division).
 */

/** How many decimals the currency's minor unit stands for (KRW 0, USD 2, BHD 3). */
export function minorUnitDigits(currency: string): number {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** `1203` with 2 digits → `"12.03"`; exact for every safe integer. */
export function minorToDecimalText(minor: number, digits: number): string {
  const sign = minor < 0 ? '-' : '';
  const text = Math.abs(minor).toString().padStart(digits + 1, '0');
  if (digits === 0) return sign + text;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

export function isCurrencyCode(currency: string): boolean {
  if (!/^[A-Z]{3}$/.test(currency)) return false;
  try {
    new Intl.NumberFormat('en-US', { style: 'currency', currency });
    return true;
  } catch {
    return false;
  }
}

/**
 * `formatMoney(12000, 'KRW')` → `₩12,000`; `formatMoney(1203, 'USD')` → `$12.03`;
 * `formatMoney(12000, 'KRW', 'ko-KR')` → `12,000원`, as Korean readers write won.
 * An unknown currency code is shown with the code rather than guessed.
 */
export function formatMoney(minor: number, currency: string, locale = 'en-US'): string {
  if (!isCurrencyCode(currency)) return `${minor.toLocaleString(locale)} ${currency} (minor units)`;
  const digits = minorUnitDigits(currency);
  const decimal = minorToDecimalText(minor, digits);
  if (locale.toLowerCase().startsWith('ko') && currency === 'KRW') {
    // Intl gives "₩12,000" for ko-KR; a Korean shop's staff read and write "12,000원".
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(decimal as unknown as number)}원`;
  }
  // A decimal string keeps every digit (Intl.NumberFormat formats strings exactly).
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(decimal as unknown as number);
}
