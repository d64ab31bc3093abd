import { backoffDelay } from '../backoff';

/** Base doubling each resend, capped at 60 s, jittered so replicas never resend in lock-step. */
export function resendDelay(attemptsSpent: number, baseMs: number, random?: () => number): number {
  return backoffDelay(attemptsSpent, { baseMs, maxMs: 60_000 }, random);
}
