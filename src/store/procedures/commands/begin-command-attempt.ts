import type { BeginAttempt } from '../../command-types';
import { get, run, type Procedure } from '../procedure';

/**
 * Marks an attempt begun before anything is sent: for an approval this is the "in doubt" mark
 * a restart finds. Only the lease holder may begin one; null tells it to send nothing.
 */
export function* beginCommandAttempt(attempt: BeginAttempt): Procedure<number | null> {
  const updated = yield* get<{ attempts: number | string }>(
    `UPDATE commands SET attempts = attempts + 1, state = ?, request_json = ?, updated_at = ?, locked_until = ?
     WHERE shop_transaction_id = ? AND locked_by = ? RETURNING attempts`,
    attempt.state, JSON.stringify(attempt.request), attempt.at, attempt.leaseUntil, attempt.shopTransactionId, attempt.owner,
  );
  if (!updated) return null;
  const n = Number(updated.attempts);
  yield* run(
    `INSERT INTO command_attempts (shop_transaction_id, n, operation, started_at, request_json) VALUES (?, ?, ?, ?, ?)`,
    attempt.shopTransactionId, n, attempt.operation, attempt.at, JSON.stringify(attempt.request),
  );
  return n;
}
