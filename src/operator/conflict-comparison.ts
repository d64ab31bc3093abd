import type { ConflictRow, EventDetail } from '../store/store';
import { diffFields, type FieldChange } from './field-diff';

/** A conflicting redelivery beside the stored notification, as the console and the CLI show it. */
export interface ConflictComparison {
  /** When the retention policy removed the stored notification's body and data; null while kept. */
  storedPrunedAt: string | null;
  /** The same for the conflicting redelivery. */
  conflictPrunedAt: string | null;
  /** Every field either side still holds, in the stored body's order first. */
  fields: FieldChange[];
  /**
   * The fields that differ, when both sides are there to compare; null when one is gone (pruned,
   * or the stored event missing): its emptiness would read as "nothing differs" or, field by
   * field, as "absent", neither of which is true.
   */
  differing: FieldChange[] | null;
}

export function compareConflict(conflict: ConflictRow, stored: EventDetail | null): ConflictComparison {
  const storedData = (stored?.event.data ?? {}) as Record<string, unknown>;
  const conflictingData = conflict.event.data as Record<string, unknown>;
  const storedPrunedAt = stored?.prunedAt ?? null;
  const conflictPrunedAt = conflict.prunedAt ?? null;
  const comparable = stored !== null && storedPrunedAt === null && conflictPrunedAt === null;
  const names = [...new Set([...Object.keys(storedData), ...Object.keys(conflictingData)])];
  return {
    storedPrunedAt,
    conflictPrunedAt,
    fields: names.map((field) => ({ field, stored: storedData[field], conflicting: conflictingData[field] })),
    differing: comparable ? diffFields(storedData, conflictingData) : null,
  };
}
