import { spentSinceBudget, type AttemptPolicy } from './attempt-policy';
import type { CommandDeps, CommandSettings } from './command-deps';
import type { StoredCommand } from './command-record';
import { submitCommand } from './submit-command';

export const cancelVanPolicy = (settings: CommandSettings): AttemptPolicy => ({
  operation: 'van.cancel',
  onSuccess: 'succeeded',
  onFinal: 'failed',
  onUnknown: 'pending',
  onExhausted: 'failed',
  budget: settings.maxAttempts,
  spent: spentSinceBudget,
});

/** Cancels a VAN payment; the gateway's VAN payloads are unpublished, so the body passes through as given. */
export async function cancelVan(deps: CommandDeps, body: Record<string, unknown> & { mallId: string; shopTransactionId: string }): Promise<{ command: StoredCommand; created: boolean }> {
  deps.gateway.assertConfigured('van.cancel');
  return submitCommand(deps, 'van.cancel', body, body, cancelVanPolicy(deps.settings));
}
