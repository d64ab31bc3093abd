import { GatewayNotConfigured } from '../gateway/gateway-errors';
import { kstDate } from '../gateway/kst-date';
import { keyForMall, msgAuthValue } from '../gateway/msg-auth';
import { spentSinceBudget, type AttemptPolicy } from './attempt-policy';
import type { CommandSettings, CommandDeps } from './command-deps';
import type { StoredCommand } from './command-record';
import { shopTransactionIdOf, submitCommand } from './submit-command';

export const cancelWalletPolicy = (settings: CommandSettings): AttemptPolicy => ({
  operation: 'wallet-b.cancel',
  onSuccess: 'succeeded',
  onFinal: 'failed',
  onUnknown: 'pending',
  onExhausted: 'failed',
  budget: settings.maxAttempts,
  spent: spentSinceBudget,
  eventType: (state) => (state === 'succeeded' ? 'wallet.cancel.succeeded' : state === 'failed' ? 'wallet.cancel.failed' : null),
});

/**
 * Cancels a wallet-b payment. `cancelReqDate` and `msgAuthValue` are fixed here, before the
 * command is stored, so every resend (after a restart, after midnight in Korea) sends the
 * same values the gateway saw first. The POST waits for the first attempt only.
 */
export async function cancelWallet(deps: CommandDeps, body: Record<string, unknown>): Promise<{ command: StoredCommand; created: boolean }> {
  deps.gateway.assertConfigured('wallet-b.cancel');
  const mallId = String(body.mallId);
  const key = keyForMall(deps.keys, mallId);
  if (!key) {
    throw new GatewayNotConfigured(
      'GATEWAY_SECRET_KEY',
      `set it (or GATEWAY_SECRET_KEY_FILE, or GATEWAY_SECRET_KEY_${mallId.toUpperCase()} for this mall) to the secret key the gateway issued for msgAuthValue`,
    );
  }
  const shopTransactionId = shopTransactionIdOf(body);
  const pgCno = String(body.pgCno);
  const request = {
    ...body,
    mallId,
    pgCno,
    shopTransactionId,
    cancelReqDate: kstDate(deps.now()),
    msgAuthValue: msgAuthValue(key, pgCno, shopTransactionId, deps.settings.msgAuthEncoding),
  };
  // A replay of a stored key must keep the stored date and MAC: submitCommand returns the stored command untouched.
  return submitCommand(deps, 'wallet-b.cancel', body, request, cancelWalletPolicy(deps.settings));
}
