import type { NormalizedEvent } from '../../../notifications/normalized-event';
import type { ConflictRow } from '../../store';
import { CONFLICT_COLUMNS, withEvent, type ConflictSqlRow } from './columns';
import { get, type Procedure } from '../procedure';

export function* getConflict(id: number): Procedure<ConflictRow | null> {
  const row = yield* get<ConflictSqlRow>(`SELECT ${CONFLICT_COLUMNS} FROM conflicts WHERE id = ?`, id);
  return row ? withEvent<ConflictSqlRow, NormalizedEvent>(row) : null;
}
