import type { CancellationFact, OrderKey } from './ledger-facts';
import { ledgerId } from './ledger-id';

/**
 * A cancel command (wallet-b or VAN) at one of its states. One fact per (command, state): a command
 * recomputed in the same state is the same fact; its latest state is what the record shows.
 */
export function cancellationFact(
  order: OrderKey,
  command: { shopTransactionId: string; pgCno: string; state: string },
  at: string,
): CancellationFact {
  return {
    kind: 'cancellation',
    id: ledgerId('wcr_', [order.mallId, order.shopOrderNo, command.shopTransactionId, command.state]),
    at,
    recordedAt: at,
    shopTransactionId: command.shopTransactionId,
    pgCno: command.pgCno,
    state: command.state,
  };
}
