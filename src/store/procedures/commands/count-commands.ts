import type { CommandKind, CommandLane, CommandState } from '../../command-types';
import { WORKING_SQL, laneSql } from './command-columns';
import { all, get, type Procedure } from '../procedure';

export function* countCommandsByState(): Procedure<Array<{ kind: CommandKind; state: CommandState; count: number }>> {
  const rows = yield* all<{ kind: CommandKind; state: CommandState; count: number | string }>(
    'SELECT kind, state, count(*) AS count FROM commands GROUP BY kind, state ORDER BY kind, state',
  );
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

export function* countWorkingCommandsSince(before: string): Procedure<number> {
  const row = yield* get<{ n: number | string }>(`SELECT count(*) AS n FROM commands WHERE state IN ${WORKING_SQL} AND created_at < ?`, before);
  return Number(row?.n ?? 0);
}

/** A read first, so an idle worker's poll costs no write transaction (and no fsync on SQLite). */
export function* countDueCommands(now: number, lane?: CommandLane): Procedure<number> {
  const row = yield* get<{ n: number | string }>(
    `SELECT count(*) AS n FROM commands
     WHERE state IN ${WORKING_SQL} AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until < ?)${laneSql(lane)}`,
    now, now,
  );
  return Number(row?.n ?? 0);
}
