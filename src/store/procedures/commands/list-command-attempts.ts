import type { AttemptRecord } from '../../command-types';
import { ATTEMPT_COLUMNS, toAttemptRecord, type AttemptRow } from './command-columns';
import { all, type Procedure } from '../procedure';

export function* listCommandAttempts(shopTransactionId: string): Procedure<AttemptRecord[]> {
  const rows = yield* all<AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM command_attempts WHERE shop_transaction_id = ? ORDER BY n`, shopTransactionId);
  return rows.map(toAttemptRecord);
}
