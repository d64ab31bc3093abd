/**
 * The gateway's own lists as imported: the settlement statement's rows, and the reads of its fees,
 * payouts and the payouts that do not add up. One line per verb (see ../../store/procedures/index.ts).
 */
import { payoutDifferences } from './payout-differences';
import { putSettlementRows } from './put-settlement-rows';

export const reconciliationWrites = {
  putSettlementRows,
} as const;

export const reconciliationReads = {
  payoutDifferences,
} as const;
