import type { RejectionLine, RejectionRow } from '../../store';
import { REJECTION_COLUMNS } from './columns';
import { all, type Procedure } from '../procedure';

export function* listRejections(limit = 100): Procedure<RejectionRow[]> {
  return yield* all<RejectionRow>(`SELECT ${REJECTION_COLUMNS} FROM rejections ORDER BY id DESC LIMIT ?`, limit);
}

export function* listRejectionLines(limit: number): Procedure<RejectionLine[]> {
  return yield* all<RejectionLine>(
    `SELECT id, received_at AS "receivedAt", source_ip AS "sourceIp", http_status AS "httpStatus", reason,
       reprocessed_event_id AS "reprocessedEventId"
     FROM rejections ORDER BY id DESC LIMIT ?`,
    limit,
  );
}
