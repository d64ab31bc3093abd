import type { Logger } from '../observability/logger';

/**
 * First attempts that outlived their POST's answer (see answerDeadline). Each is still
 * recorded when it ends; shutdown waits for them, bounded, so their outcome is not left to
 * the next start's takeover.
 */
export interface AttemptsInFlight {
  track(attempt: Promise<unknown>, shopTransactionId: string): void;
  settled(timeoutMs: number): Promise<void>;
}

export function createAttemptsInFlight(logger: Logger): AttemptsInFlight {
  const running = new Set<Promise<unknown>>();
  return {
    track(attempt, shopTransactionId) {
      const tracked = attempt
        .catch((error: Error) => {
          // Nobody awaits it any more: the lease expires and the worker resends or net-cancels it.
          logger.error('command attempt failed to run', { shopTransactionId, error: error.message });
        })
        .finally(() => running.delete(tracked));
      running.add(tracked);
    },
    async settled(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.all(running), late]);
      clearTimeout(timer);
    },
  };
}
