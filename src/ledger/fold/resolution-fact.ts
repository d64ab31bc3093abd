import type { ResolutionFact } from './ledger-facts';
import { ledgerId } from './ledger-id';

/** An operator's resolution of one discrepancy. Resolving twice is one fact: the first one stands. */
export function resolutionFact(discrepancyId: string, resolution: { by: string; note: string }, at: string): ResolutionFact {
  return {
    kind: 'resolution',
    id: ledgerId('res_', [discrepancyId]),
    at,
    recordedAt: at,
    discrepancyId,
    by: resolution.by,
    note: resolution.note,
  };
}
