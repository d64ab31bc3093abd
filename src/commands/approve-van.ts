import type { AttemptPolicy } from './attempt-policy';
import type { CommandDeps } from './command-deps';
import type { StoredCommand } from './command-record';
import { submitCommand } from './submit-command';

/**
 * An approval is sent once and never resent: without an answer nobody knows whether the
 * customer was charged, so the only safe move is a net-cancel, sent at once.
 */
const approveVanPolicy: AttemptPolicy = {
  operation: 'van.approve',
  onSuccess: 'approved',
  onFinal: 'declined',
  onUnknown: 'net_cancelling',
  onExhausted: 'net_cancelling',
  budget: 1,
  spent: () => 0,
  immediate: ['net_cancelling'],
};

/**
 * The command is stored `pending` (in doubt) before the approval is sent, so a process that
 * dies while waiting leaves a record the worker net-cancels after the restart.
 */
export async function approveVan(deps: CommandDeps, body: Record<string, unknown> & { mallId: string; shopTransactionId: string }): Promise<{ command: StoredCommand; created: boolean }> {
  deps.gateway.assertConfigured('van.approve');
  return submitCommand(deps, 'van.approve', body, body, approveVanPolicy);
}
