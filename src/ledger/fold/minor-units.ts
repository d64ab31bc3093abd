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

/**
 * Refuses to compute an order whose amounts could make a sum inexact. Every figure of the fold
 * (approved, cancelled, deposited, remaining, a holding's amount and what was taken from it, a
 * remainder) is a sum or difference of some of these amounts, so its magnitude, and that of every
 * partial result on the way, is at most the sum of their magnitudes; integers below 2^53 add and
 * subtract exactly in a double. The gateway's 12-digit fields (refused beyond) keep this true up
 * to 9,007 amounts of 999,999,999,999 on one order; past that the order is a `ledger_error`, said,
 * never a rounded figure. Gives the bound, from which a later amount goes on (`from`).
 */
export function assertExactSums(amounts: Iterable<number | null>, from = 0): number {
  let bound = from;
  for (const amount of amounts) {
    bound += Math.abs(amount ?? 0);
    if (!Number.isSafeInteger(bound)) throw new Error('the order\'s amounts add up past 2^53: its sums would not be exact');
  }
  return bound;
}
