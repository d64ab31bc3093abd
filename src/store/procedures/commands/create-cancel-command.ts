import type { LedgerSettings } from '../../../config/ledger-settings';
import { cancelClaim } from '../../../ledger/payment-left';
import type { CancelCreation, NewCommand } from '../../command-types';
import { storeLedgerInputs } from '../ledger/ledger-inputs';
import { commandLedgerFacts } from './command-ledger-facts';
import { COMMAND_COLUMNS, toStoredCommand, type CommandRow } from './command-columns';
import { createCommand } from './create-command';
import { paymentHeadroom } from './payment-headroom';
import { dialect, get, type Procedure } from '../procedure';

/**
 * Records a cancel only when it fits in what is left of its payment, in one transaction: the check
 * reads the cancels already recorded (those still waiting on the gateway included), so no set of
 * cancels sent at once can together take more than the payment. SQLite's one writer runs write
 * transactions one at a time; on PostgreSQL a transaction lock on the payment makes replicas take
 * their turns (write transactions also begin with the outbox-order lock, but this rule must not
 * rest on it). A key already recorded is returned as stored, unchecked: it is the same cancel.
 * The cancel is a ledger input from now, requested, so the order shows it before any answer.
 */
export function* createCancelCommand(command: NewCommand, ledger: LedgerSettings | null = null): Procedure<CancelCreation> {
  const claim = cancelClaim(command.kind, command.request);
  if (claim !== null && (yield* dialect()) === 'postgres') {
    // The one-bigint key space never meets the two-int4 keys of advisory-locks.ts.
    yield* get("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/cancel/' || ?, 0))", claim.pgCno);
  }
  const stored = yield* get<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM commands WHERE shop_transaction_id = ?`, command.shopTransactionId);
  if (stored) return { created: false, command: toStoredCommand(stored) };
  if (claim !== null) {
    const left = yield* paymentHeadroom(claim.pgCno);
    if (left !== null && (claim.amount === null ? left <= 0 : claim.amount > left)) return { refusal: { pgCno: claim.pgCno, amount: claim.amount, left } };
  }
  const created = yield* createCommand(command);
  if (created.created && ledger !== null) yield* storeLedgerInputs(yield* commandLedgerFacts(created.command));
  return created;
}
