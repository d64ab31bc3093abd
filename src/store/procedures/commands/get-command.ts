import type { StoredCommand } from '../../command-types';
import { COMMAND_COLUMNS, toStoredCommand, type CommandRow } from './command-columns';
import { get, type Procedure } from '../procedure';

export function* getCommand(shopTransactionId: string): Procedure<StoredCommand | null> {
  const row = yield* get<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM commands WHERE shop_transaction_id = ?`, shopTransactionId);
  return row ? toStoredCommand(row) : null;
}
