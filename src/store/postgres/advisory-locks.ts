/**
 * Advisory lock keys, as the two-int4 form `(kind, schema)`. Advisory locks are database-wide,
 * so the second half is a hash of the current schema: deployments (and test runs) that share
 * one database in separate schemas must not block each other's relay or migrations.
 */
const NAMESPACE = 0x504e5200; // "PNR\0": keeps our kinds apart from other apps' advisory locks

export const LOCK_KIND = {
  migrate: NAMESPACE + 1,
  outboxOrder: NAMESPACE + 2,
  relay: NAMESPACE + 3,
  /** One ledger projector across replicas (session-level, like the relay's). */
  projector: NAMESPACE + 4,
  /** Held by each transaction that writes the ledger's tables (a projector's batch, a sweep, a rebuild page). */
  ledgerWrite: NAMESPACE + 5,
  /** Held by each transaction that adds ledger inputs, so their seqs commit in order. */
  inputOrder: NAMESPACE + 6,
} as const;

/** SQL arguments for `pg_advisory_*lock(…)` of one kind in the connection's schema. */
export function lockArgs(kind: number): string {
  return `${kind}, hashtext(current_schema())`;
}
