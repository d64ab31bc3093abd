/**
 * An amount in the currency's minor unit, as the gateway sends it: an integer string (or, when a
 * body carried a bare JSON number, an integer). Anything else is `null` — "the gateway sent no
 * readable amount" — never NaN, never a float, never a number rounded past 2^53.
 */
export function minorUnits(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value.trim())) return null;
  const parsed = Number(value.trim());
  return Number.isSafeInteger(parsed) ? parsed : null;
}

/** A sum that treats an unreadable amount as nothing received: the discrepancy that names it says so. */
export function sumOf(amounts: ReadonlyArray<number | null>): number {
  let total = 0;
  for (const amount of amounts) total += amount ?? 0;
  return total;
}
