import { sortedKeys } from '../sorted-keys';

/**
 * The text logform's `json()` format writes (safe-stable-stringify: keys sorted by code unit, then
 * as JSON.stringify writes them) for a record whose values are all scalars, as a log record's
 * usually are: the keys are copied in sorted order into a plain object for the native
 * JSON.stringify, instead of logform's generic walk with a replacer call per value.
 * Null when the record needs that walk: a value that is not a scalar, or a key a plain object
 * would not keep in insertion order (integer-like keys come first) or at all (`__proto__`).
 */
export function scalarJsonLine(record: Record<string, unknown>): string | null {
  const keys = sortedKeys(record);
  const sorted: Record<string, unknown> = {};
  for (const key of keys) {
    const value = record[key];
    const type = typeof value;
    if ((type === 'object' && value !== null) || type === 'function' || type === 'symbol' || type === 'bigint') return null;
    const first = key.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39) || key === '__proto__') return null;
    sorted[key] = value;
  }
  return JSON.stringify(sorted);
}
