import type { AttemptOutcome, DeliveryAttempt } from '../../store';

/**
 * Writing the delivery history: one INSERT … SELECT from the outbox rows a write just marked, so a
 * whole batch is one statement and the history commits with the outcome it records. The casts
 * give PostgreSQL a type for parameters that only appear in a SELECT list.
 */
export function historyInsert(outcome: AttemptOutcome, from: string): string {
  return `INSERT INTO delivery_attempts (outbox_seq, event_id, attempt, at, outcome, error, publisher, retry_at, actor)
    SELECT o.seq, o.event_id, ${outcome === 'requeued' ? 'NULL' : 'o.attempts'}, CAST(? AS TEXT), '${outcome}',
      CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT)
    ${from} ORDER BY o.seq`;
}

export const DELIVERY_ATTEMPT_COLUMNS = `id, attempt, at, outcome, error, publisher, retry_at AS "retryAt", actor, pruned_at AS "prunedAt"`;

/** PostgreSQL returns BIGINT as a string. */
export function toDeliveryAttempt(row: Omit<DeliveryAttempt, 'id'> & { id: number | string }): DeliveryAttempt {
  return { ...row, id: Number(row.id), attempt: row.attempt === null ? null : Number(row.attempt) };
}
