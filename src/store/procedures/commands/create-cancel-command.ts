import type { LedgerSettings } from '../../../config/ledger-settings';
import { cancelClaim } from '../../../ledger/fold/payment-left';
import type { CancelCreation, NewCommand } from '../../command-types';
import { storeLedgerInputs } from '../../../ledger/sql/ledger-inputs';
import { commandLedgerFacts } from './command-ledger-facts';
import { COMMAND_COLUMNS, toStoredCommand, type CommandRow } from './command-columns';
import { createCommand } from './create-command';
import { lockPayment, refusalOf } from './payment-headroom';
import { get, run, type Procedure } from '../procedure';

/**
 * Records a cancel only when it fits in what is left of its payment, in one transaction: the check
 * reads the cancels already recorded (those still waiting on the gateway included), so no set of
 * cancels sent at once, on any replica, can together take more than the payment. A key already
 * recorded is returned as stored, unchecked: it is the same cancel. The cancel is a ledger input
 * from now, requested, so the order shows it before any answer.
 */
export function* createCancelCommand(command: NewCommand, ledger: LedgerSettings | null = null): Procedure<CancelCreation> {
  const claim = cancelClaim(command.kind, command.request);
  // Taken before the key is looked up: a second send of the same key waits, then finds it stored.
  if (claim !== null) yield* lockPayment(claim.pgCno);
  const stored = yield* get<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM commands WHERE shop_transaction_id = ?`, command.shopTransactionId);
  if (stored) return { created: false, command: toStoredCommand(stored) };
  const refusal = claim === null ? null : yield* refusalOf(claim);
  if (refusal !== null) return { refusal };
  const created = yield* createCommand(command);
  if (!created.created || claim === null) return created;
  // The column the next check finds this cancel by (createCommand's own statements stay those every schema since 003 takes).
  yield* run('UPDATE commands SET pg_cno = ? WHERE shop_transaction_id = ?', claim.pgCno, command.shopTransactionId);
  if (ledger !== null) yield* storeLedgerInputs(yield* commandLedgerFacts(created.command));
  return created;
}
