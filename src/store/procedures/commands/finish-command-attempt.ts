import type { FinishAttempt, StoredCommand } from '../../command-types';
import { COMMAND_COLUMNS, toStoredCommand, type CommandRow } from './command-columns';
import type { LedgerSettings } from '../../../config/ledger-settings';
import { commandLedgerFacts } from './command-ledger-facts';
import { storeLedgerInputs } from '../../../ledger/sql/ledger-inputs';
import { queueOwnEvents } from '../inbox-outbox/own-events';
import { get, run, type Procedure } from '../procedure';

/**
 * Records an attempt's answer or error and the state it leads to, and frees the lease. A final
 * state that the internal queue must hear about gets its outbox row in this same transaction.
 */
export function* finishCommandAttempt(finish: FinishAttempt, ledger: LedgerSettings | null = null): Procedure<StoredCommand> {
  const response = finish.response === null ? null : JSON.stringify(finish.response);
  // The attempt happened whoever holds the lease now: it is recorded in any case.
  yield* run(
    `UPDATE command_attempts SET finished_at = ?, http_status = ?, response_json = ?, answer_text = ?, error = ?
     WHERE shop_transaction_id = ? AND n = ?`,
    finish.at, finish.httpStatus, response, finish.answerText, finish.error, finish.shopTransactionId, finish.n,
  );
  const updated = yield* run(
    `UPDATE commands SET state = ?, response_json = COALESCE(?, response_json), last_error = ?, updated_at = ?,
       next_attempt_at = ?, locked_by = NULL, locked_until = NULL
     WHERE shop_transaction_id = ? AND locked_by = ?`,
    finish.state, response, finish.error, finish.at, finish.nextAttemptAt, finish.shopTransactionId, finish.owner,
  );
  // A command's final state is queued for the internal queue as the service's own event.
  if (updated.changes > 0 && finish.event) yield* queueOwnEvents('command', [finish.event], finish.at);
  const row = yield* get<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM commands WHERE shop_transaction_id = ?`, finish.shopTransactionId);
  const command = toStoredCommand(row!);
  // The ledger's input is stored in the transaction that stores the command's new state.
  if (updated.changes > 0 && ledger !== null) yield* storeLedgerInputs(yield* commandLedgerFacts(command));
  return command;
}
