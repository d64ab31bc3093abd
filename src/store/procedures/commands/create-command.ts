import type { NewCommand, StoredCommand } from '../../command-types';
import { COMMAND_COLUMNS, toStoredCommand, type CommandRow } from './command-columns';
import { get, run, type Procedure } from '../procedure';

/** Inserts the command, leased to its creator for the first attempt; a known key returns the stored one untouched. */
export function* createCommand(command: NewCommand): Procedure<{ created: boolean; command: StoredCommand }> {
  const inserted = yield* get<{ shop_transaction_id: string }>(
    `INSERT INTO commands (shop_transaction_id, kind, mall_id, state, body_hash, request_json, created_at, updated_at,
       next_attempt_at, locked_by, locked_until)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING RETURNING shop_transaction_id`,
    command.shopTransactionId, command.kind, command.mallId, command.state, command.bodyHash,
    JSON.stringify(command.request), command.at, command.at, Date.parse(command.at), command.owner, command.leaseUntil,
  );
  // Only with tracing on: untraced, the statements are the ones every schema since 003 takes.
  if (inserted && command.traceContext) {
    yield* run('UPDATE commands SET trace_context = ? WHERE shop_transaction_id = ?', command.traceContext, command.shopTransactionId);
  }
  const row = yield* get<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM commands WHERE shop_transaction_id = ?`, command.shopTransactionId);
  return { created: inserted !== undefined, command: toStoredCommand(row!) };
}
