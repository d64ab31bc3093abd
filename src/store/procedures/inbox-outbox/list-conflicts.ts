import type { NormalizedEvent } from '../../../notifications/normalized-event';
import type { ConflictLine, ConflictRow } from '../../store';
import { CONFLICT_COLUMNS, withEvent, type ConflictSqlRow } from './columns';
import { jsonField } from '../json-field';
import { all, dialect, type Dialect, type Procedure } from '../procedure';

export function* listConflicts(limit = 100): Procedure<ConflictRow[]> {
  const rows = yield* all<ConflictSqlRow>(`SELECT ${CONFLICT_COLUMNS} FROM conflicts ORDER BY id DESC LIMIT ?`, limit);
  return rows.map(withEvent<ConflictSqlRow, NormalizedEvent>);
}

/** The redelivery's own order number (it may differ from the stored event's), read by the database, not parsed here. */
const shopOrderNo = (dialect: Dialect): string => jsonField(dialect, 'event_json', ['shopOrderNo']);

export function* listConflictLines(limit: number): Procedure<ConflictLine[]> {
  return yield* all<ConflictLine>(
    `SELECT id, event_id AS "eventId", received_at AS "receivedAt", source_ip AS "sourceIp",
       ${shopOrderNo(yield* dialect())} AS "shopOrderNo"
     FROM conflicts ORDER BY id DESC LIMIT ?`,
    limit,
  );
}
