import type { RejectionEntry } from '../store';
import { get, type Procedure } from './procedure';

export function* recordRejection(entry: RejectionEntry): Procedure<number> {
  const row = yield* get<{ id: number }>(
    `INSERT INTO rejections (received_at, source_ip, content_type, raw_body, http_status, reason)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    entry.receivedAt, entry.sourceIp, entry.contentType, entry.rawBody, entry.httpStatus, entry.reason,
  );
  return row!.id;
}
