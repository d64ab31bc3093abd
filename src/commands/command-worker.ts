import type { AttemptPolicy } from './attempt-policy';
import { cancelVanPolicy } from './cancel-van';
import { cancelWalletPolicy } from './cancel-wallet';
import { leaseMs, type CommandDeps } from './command-deps';
import type { StoredCommand } from './command-record';
import { createTradePolicy } from './create-trade';
import { netCancelPolicy } from './net-cancel';
import { runAttempt } from './run-attempt';

export interface CommandWorker {
  /** Look for due commands now rather than at the next poll. */
  wake(): void;
  /** Stops leasing; waits (bounded) for attempts in flight so their outcome is recorded. */
  stop(timeoutMs: number): Promise<void>;
}

/** Which attempt a due command needs. The worker never sends an approval: one found pending is in doubt. */
export function policyFor(command: StoredCommand, deps: CommandDeps): AttemptPolicy {
  switch (command.command) {
    case 'wallet-a.create':
      return createTradePolicy(deps.settings);
    case 'wallet-b.cancel':
      return cancelWalletPolicy(deps.settings);
    case 'van.cancel':
      return cancelVanPolicy(deps.settings);
    case 'van.approve':
      return netCancelPolicy(deps.settings);
  }
}

/**
 * The one loop that owns resends and net-cancels: it leases due commands (one replica at a
 * time per command; an expired lease is a dead replica's and is taken over), works them, and
 * polls again.
 */
export function startCommandWorker(deps: CommandDeps, options: { pollMs: number; batchSize?: number }): CommandWorker {
  const batchSize = options.batchSize ?? 16;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const pass = async (): Promise<number> => {
    const now = deps.now().getTime();
    if ((await deps.store.countDue(now)) === 0) return 0;
    const due = await deps.store.leaseDue(deps.owner, now, now + leaseMs(deps.settings), batchSize);
    await Promise.all(due.map((command) => work(command)));
    return due.length;
  };

  const work = async (command: StoredCommand): Promise<void> => {
    try {
      if (command.command === 'van.approve' && command.state === 'pending') {
        deps.logger.warn('approval found in doubt; net-cancelling it', { shopTransactionId: command.shopTransactionId });
        deps.metrics.netCancels.inc({ outcome: 'started' });
      }
      await runAttempt(deps, command, policyFor(command, deps));
    } catch (error) {
      // The lease expires and the command is tried again; a store outage must not stop the loop.
      deps.logger.error('command attempt failed to run', { shopTransactionId: command.shopTransactionId, error: (error as Error).message });
    }
  };

  const loop = () => {
    timer = null;
    if (stopped) return;
    running = pass()
      .catch((error: Error) => {
        deps.logger.warn('command worker pass failed', { error: error.message });
        return 0;
      })
      .then((count) => {
        running = null;
        if (!stopped) timer = setTimeout(loop, count >= batchSize ? 0 : options.pollMs);
      });
  };
  timer = setTimeout(loop, 0);

  return {
    wake() {
      if (timer && !stopped && !running) {
        clearTimeout(timer);
        timer = setTimeout(loop, 0);
      }
    },
    async stop(timeoutMs) {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (running) await Promise.race([running, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    },
  };
}
