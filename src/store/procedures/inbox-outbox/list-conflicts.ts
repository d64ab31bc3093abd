import type { NormalizedEvent } from '../../../notifications/normalized-event';
import type { ConflictRow } from '../../store';
import { CONFLICT_COLUMNS, withEvent, type ConflictSqlRow } from './columns';
import { all, type Procedure } from '../procedure';

export function* listConflicts(limit = 100): Procedure<ConflictRow[]> {
  const rows = yield* all<ConflictSqlRow>(`SELECT ${CONFLICT_COLUMNS} FROM conflicts ORDER BY id DESC LIMIT ?`, limit);
  return rows.map(withEvent<ConflictSqlRow, NormalizedEvent>);
}
