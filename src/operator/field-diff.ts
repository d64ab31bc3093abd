import { maskSensitive } from '../observability/mask';

export interface FieldChange {
  field: string;
  stored: unknown;
  conflicting: unknown;
}

/** The fields whose values differ between two notifications, in the stored body's field order first. */
export function diffFields(stored: Record<string, unknown>, conflicting: Record<string, unknown>): FieldChange[] {
  const names = [...new Set([...Object.keys(stored), ...Object.keys(conflicting)])];
  return names
    .filter((name) => JSON.stringify(stored[name]) !== JSON.stringify(conflicting[name]))
    .map((name) => ({ field: name, stored: stored[name], conflicting: conflicting[name] }));
}

/** A change with personal values masked the same way the logs mask them, nested ones included. */
export function maskChange(change: FieldChange): FieldChange {
  const mask = (value: unknown) => (maskSensitive({ [change.field]: value }) as Record<string, unknown>)[change.field];
  return { ...change, stored: mask(change.stored), conflicting: mask(change.conflicting) };
}
