/**
 * A table's integer key as a URL or a cursor carries it (a rejection's or conflict's id, an
 * order's order_id): up to 15 digits, so it is exact as a JS number; null for anything else.
 */
export function rowIdOf(text: unknown): number | null {
  return typeof text === 'string' && /^\d{1,15}$/.test(text) ? Number(text) : null;
}
