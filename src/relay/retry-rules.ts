import { backoffDelay, type BackoffOptions } from '../backoff';
import { isPermanent } from '../publishers/publisher';

/** What a failed publish makes of the row: dead (an operator must requeue it), or tried again after `delayMs`. */
export type PublishVerdict = { outcome: 'dead' } | { outcome: 'retry'; delayMs: number };

/**
 * A permanent failure (the queue refused this event for good) is dead at once; a transient one is
 * retried with a growing back-off, for ever unless `maxAttempts` is set: giving up on the head
 * would let the events behind it reach the queue before it.
 */
export function verdictOf(error: Error, attempt: number, rules: { maxAttempts: number; backoff: BackoffOptions }): PublishVerdict {
  if (isPermanent(error) || (rules.maxAttempts > 0 && attempt >= rules.maxAttempts)) return { outcome: 'dead' };
  return { outcome: 'retry', delayMs: backoffDelay(attempt, rules.backoff) };
}
