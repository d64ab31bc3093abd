import { computedPayout } from '../../ledger/fold/settlement-conditions';
import type { SettledTransaction } from '../../ledger/fold/ledger-facts';

/** A settlement row as the payout check reads it (minor units), with the import that states it. */
export type PayoutRow = Omit<SettledTransaction, 'payoutDay' | 'transactionDay'> & { importId: string };

/** What one import states of one payout: the sum of its rows' payouts, and of their gross − fee − VAT. */
export interface ImportPayout {
  importId: string;
  payout: number;
  computed: number;
}

/** One payout of one mall on one day that does not add up, with the rows that do not. */
export interface PayoutDifference {
  payoutDay: string;
  mallId: string;
  /** Rows whose gross − fee − VAT is not their payout, each with by how much (payout − that). */
  rows: Array<PayoutRow & { difference: number }>;
  /** The payout as its rows sum it, and as their gross − fee − VAT sums: `difference` is the first less the second. */
  payout: number;
  computed: number;
  difference: number;
  /** Imports that state this payout with different sums (a statement issued again, changed): each import's sum. */
  statedByImport: Array<{ importId: string; payout: number }>;
}

/**
 * Whether one payout (one mall, one payout day) adds up: each row's gross less its fee and the
 * fee's VAT is its payout, and every import that states the payout states the same sum. Integers
 * in minor units, so "adds up" is equality. null when it does. `offRows`: the rows that do not
 * add up (the store reads no other row); `imports`: each import's sums of the payout.
 */
export function payoutDifference(payoutDay: string, mallId: string, offRows: readonly PayoutRow[], imports: readonly ImportPayout[]): PayoutDifference | null {
  const rows = offRows.map((r) => ({ ...r, difference: r.payout - computedPayout(r) })).filter((r) => r.difference !== 0);
  const stated = new Set(imports.map((i) => i.payout));
  if (rows.length === 0 && stated.size <= 1) return null;
  const payout = imports.reduce((sum, i) => sum + i.payout, 0);
  const computed = imports.reduce((sum, i) => sum + i.computed, 0);
  return {
    payoutDay, mallId, rows, payout, computed, difference: payout - computed,
    statedByImport: stated.size <= 1 ? [] : imports.map(({ importId, payout: sum }) => ({ importId, payout: sum })).sort((a, b) => (a.importId < b.importId ? -1 : 1)),
  };
}
