import type { DiscrepancyKind } from './order-record';

/** A discrepancy kind that holds now, with the events that show it (by time, then id). */
export interface DiscrepancyCondition {
  id: string;
  kind: DiscrepancyKind;
  eventIds: string[];
  details: Record<string, string | number | null>;
}

/** A condition before its id is derived (see `discrepancyId`): what each kind's conditions answer. */
export type ShownCondition = Omit<DiscrepancyCondition, 'id'>;
