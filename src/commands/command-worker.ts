import type { AttemptPolicy } from './attempt-policy';
import { cancelVanPolicy } from './cancel-van';
import { cancelWalletPolicy } from './cancel-wallet';
import type { CommandDeps } from './command-deps';
import { startLane } from './command-lane';
import { COMMAND_KINDS, type CommandKind, type StoredCommand } from './command-record';
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
function policyFor(command: StoredCommand, deps: CommandDeps): AttemptPolicy {
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
 * Net-cancels the worker sends at a time. Each stands for an approval that may have charged a
 * customer, so one is never kept waiting for a slot that others the gateway holds fill: only
 * approvals in doubt make them, and a held one costs a socket, nothing more.
 */
const NET_CANCEL_SLOTS = 256;

/**
 * The one worker that owns resends and net-cancels: it leases due commands (one replica at a
 * time per command; an expired lease is a dead replica's and is taken over) and works them.
 * Each kind has a lane of its own: an approval in doubt may stand at the gateway, and its
 * reqRtran goes at once, never behind a round of cancellations the gateway is slow to answer;
 * a trade's resend never waits for a slot that held cancellations fill.
 */
export function startCommandWorker(deps: CommandDeps, options: { pollMs: number; batchSize?: number }): CommandWorker {
  const slots = options.batchSize ?? 16;
  const slotsOf = (kind: CommandKind) => (kind === 'van.approve' ? Math.max(slots, NET_CANCEL_SLOTS) : slots);

  const work = async (command: StoredCommand): Promise<void> => {
    try {
      if (command.command === 'van.approve' && command.state === 'pending') {
        deps.logger.warn('approval found in doubt; net-cancelling it', { shopTransactionId: command.shopTransactionId });
        deps.metrics.netCancels.inc({ outcome: 'started' });
      }
      await runAttempt(deps, command, policyFor(command, deps));
    } catch (error) {
      // The lease expires and the command is tried again; a store outage must not stop the worker.
      deps.logger.error('command attempt failed to run', { shopTransactionId: command.shopTransactionId, error: (error as Error).message });
    }
  };

  const lanes = COMMAND_KINDS.map((kind) => startLane(deps, kind, { pollMs: options.pollMs, slots: slotsOf(kind), work }));
  return {
    wake: () => lanes.forEach((lane) => lane.wake()),
    async stop(timeoutMs) {
      await Promise.all(lanes.map((lane) => lane.stop(timeoutMs)));
    },
  };
}
