import { COMMAND_KINDS, type AttemptRecord, type CommandKind, type CommandLane, type CommandState, type StoredCommand } from '../../command-types';

export const COMMAND_COLUMNS = `shop_transaction_id, kind, mall_id, state, attempts, budget_start, body_hash, request_json,
  response_json, last_error, created_at, updated_at, next_attempt_at, locked_by, locked_until`;

export const ATTEMPT_COLUMNS = 'n, operation, started_at, finished_at, request_json, http_status, response_json, answer_text, error';

/** Working states as SQL, for the worker's scan and the long-pending gauge. */
export const WORKING_SQL = `('pending', 'net_cancelling')`;

/** The SQL condition (with no parameter) that keeps a lane's commands; see CommandLane. */
export function laneSql(lane: CommandLane | undefined): string {
  if (lane === undefined) return '';
  // A literal from the closed list of kinds, never caller text.
  if (!COMMAND_KINDS.includes(lane)) throw new Error(`unknown command lane ${String(lane)}`);
  return ` AND kind = '${lane}'`;
}

export interface CommandRow {
  shop_transaction_id: string;
  kind: string;
  mall_id: string;
  state: string;
  attempts: number | string;
  budget_start: number | string;
  body_hash: string;
  request_json: string;
  response_json: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  next_attempt_at: number | string;
  locked_by: string | null;
  locked_until: number | string | null;
}

/** PostgreSQL returns BIGINT as a string; both databases map to the same numbers here. */
export function toStoredCommand(row: CommandRow): StoredCommand {
  return {
    command: row.kind as CommandKind,
    shopTransactionId: row.shop_transaction_id,
    mallId: row.mall_id,
    state: row.state as CommandState,
    attempts: Number(row.attempts),
    request: JSON.parse(row.request_json) as Record<string, unknown>,
    response: row.response_json === null ? null : (JSON.parse(row.response_json) as Record<string, unknown>),
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    bodyHash: row.body_hash,
    nextAttemptAt: Number(row.next_attempt_at),
    budgetStart: Number(row.budget_start),
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until === null ? null : Number(row.locked_until),
  };
}

export interface AttemptRow {
  n: number | string;
  operation: string;
  started_at: string;
  finished_at: string | null;
  request_json: string;
  http_status: number | null;
  response_json: string | null;
  answer_text: string | null;
  error: string | null;
}

export function toAttemptRecord(row: AttemptRow): AttemptRecord {
  return {
    n: Number(row.n),
    operation: row.operation,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    request: JSON.parse(row.request_json) as Record<string, unknown>,
    httpStatus: row.http_status,
    response: row.response_json === null ? null : (JSON.parse(row.response_json) as Record<string, unknown>),
    answerText: row.answer_text,
    error: row.error,
  };
}
