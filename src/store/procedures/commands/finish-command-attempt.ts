import type { FinishAttempt, StoredCommand } from '../../command-types';
import { COMMAND_COLUMNS, toStoredCommand, type CommandRow } from './command-columns';
import type { LedgerSettings } from '../../../config/ledger-settings';
import { commandLedgerFacts } from './command-ledger-facts';
import { storeLedgerInputs } from '../../../ledger/sql/ledger-inputs';
import { get, outboxChanged, run, type Procedure } from '../procedure';

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
  const event = finish.event;
  if (updated.changes > 0 && event) {
    // The internal queue is fed only from the inbox/outbox pair: a command's event is stored as
    // an internal entry beside the notifications, keyed so it is queued once. Its dedup key is
    // 'command:' + its id, so the inbox's one unique key (event_id) keeps it once as well, and
    // 'evt_cmd_…' never equals a notification's 'evt_' + 32 hex digits.
    const inserted = yield* get<{ seq: number | string }>(
      `INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash,
         raw_body, content_type, source_ip, received_at, event_json)
       VALUES (?, ?, '', ?, ?, ?, NULL, ?, ?, 'application/json', 'internal', ?, ?)
       ON CONFLICT DO NOTHING RETURNING seq`,
      event.id, `command:${event.id}`, event.type, event.mallId, event.pgCno, event.bodyHash,
      Buffer.from(event.json, 'utf8'), finish.at, event.json,
    );
    if (inserted) {
      yield* outboxChanged();
      yield* run(
        'INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms) VALUES (?, ?, ?, ?)',
        Number(inserted.seq), event.id, finish.at, Date.parse(finish.at),
      );
    }
  }
  const row = yield* get<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM commands WHERE shop_transaction_id = ?`, finish.shopTransactionId);
  const command = toStoredCommand(row!);
  // The ledger's input is stored in the transaction that stores the command's new state.
  if (updated.changes > 0 && ledger !== null) yield* storeLedgerInputs(yield* commandLedgerFacts(command));
  return command;
}
