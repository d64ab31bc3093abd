import type { CommandLane, StoredCommand } from '../../command-types';
import { COMMAND_COLUMNS, WORKING_SQL, laneSql, toStoredCommand, type CommandRow } from './command-columns';
import { all, dialect, placeholders, run, type Procedure } from '../procedure';

/**
 * Leases due working commands to `owner`. A lease past its expiry is a dead replica's and is
 * taken over. On PostgreSQL `SKIP LOCKED` lets replicas lease side by side without waiting on
 * or double-taking a row; SQLite's single writer needs no row lock.
 */
export function* leaseDueCommands(owner: string, now: number, leaseUntil: number, limit: number, lane?: CommandLane): Procedure<StoredCommand[]> {
  const lock = (yield* dialect()) === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  const due = yield* all<{ shop_transaction_id: string }>(
    `SELECT shop_transaction_id FROM commands
     WHERE state IN ${WORKING_SQL} AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until < ?)${laneSql(lane)}
     ORDER BY next_attempt_at LIMIT ?${lock}`,
    now, now, limit,
  );
  if (due.length === 0) return [];
  const ids = due.map((row) => row.shop_transaction_id);
  yield* run(`UPDATE commands SET locked_by = ?, locked_until = ? WHERE shop_transaction_id IN (${placeholders(ids.length)})`, owner, leaseUntil, ...ids);
  const rows = yield* all<CommandRow>(
    `SELECT ${COMMAND_COLUMNS} FROM commands WHERE shop_transaction_id IN (${placeholders(ids.length)}) ORDER BY next_attempt_at`,
    ...ids,
  );
  return rows.map(toStoredCommand);
}
