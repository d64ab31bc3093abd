import type { CommandFilter, StoredCommand } from '../../command-types';
import { COMMAND_COLUMNS, toStoredCommand, type CommandRow } from './command-columns';
import { all, type Param, type Procedure } from '../procedure';

/** Newest first; only the filters given become conditions. */
export function* listCommands(filter: CommandFilter): Procedure<StoredCommand[]> {
  const conditions: string[] = [];
  const params: Param[] = [];
  if (filter.state !== undefined) {
    conditions.push('state = ?');
    params.push(filter.state);
  }
  if (filter.kind !== undefined) {
    conditions.push('kind = ?');
    params.push(filter.kind);
  }
  const rows = yield* all<CommandRow>(
    `SELECT ${COMMAND_COLUMNS} FROM commands ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
     ORDER BY created_at DESC, shop_transaction_id LIMIT ?`,
    ...params, filter.limit ?? 100,
  );
  return rows.map(toStoredCommand);
}
