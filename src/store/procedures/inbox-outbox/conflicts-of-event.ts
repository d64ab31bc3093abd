import type { NormalizedEvent } from '../../../notifications/normalized-event';
import type { ConflictRow } from '../../store';
import { CONFLICT_COLUMNS, withEvent, type ConflictSqlRow } from './columns';
import { all, type Procedure } from '../procedure';

export function* conflictsOfEvent(eventId: string): Procedure<ConflictRow[]> {
  const rows = yield* all<ConflictSqlRow>(`SELECT ${CONFLICT_COLUMNS} FROM conflicts WHERE event_id = ? ORDER BY id`, eventId);
  return rows.map(withEvent<ConflictSqlRow, NormalizedEvent>);
}
