import type { RejectionEntry } from '../../store';
import { get, outboxChanged, type Procedure } from '../procedure';

export function* recordRejection(entry: RejectionEntry): Procedure<number> {
  // A refused notification that names an order is an input of the ledger: this wakes its projector
  // (every replica's) after the commit, as the notifications' outbox rows do.
  yield* outboxChanged();
  const row = yield* get<{ id: number }>(
    `INSERT INTO rejections (received_at, source_ip, content_type, raw_body, http_status, reason)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    entry.receivedAt, entry.sourceIp, entry.contentType, entry.rawBody, entry.httpStatus, entry.reason,
  );
  return row!.id;
}
