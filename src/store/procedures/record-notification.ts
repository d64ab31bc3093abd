import type { InboxEntry, RecordResult } from '../store';
import { get, outboxChanged, run, type Procedure } from './procedure';

/**
 * Dedup and store one notification: a new key writes inbox + outbox, the same body again is a
 * counted duplicate, a different body under the same key is kept as a conflict and not queued.
 */
export function* recordNotification(entry: InboxEntry): Procedure<RecordResult> {
  const { event } = entry;
  const eventJson = JSON.stringify(event);
  // No conflict target on purpose: with `ON CONFLICT (dedup_key)` only that index arbitrates, and in
  // PostgreSQL a racing copy of the same notification would wait on the event_id index instead and
  // then fail with a unique violation (a 503) rather than be answered as the duplicate it is.
  const inserted = yield* get<{ seq: number }>(
    `INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash,
       raw_body, content_type, source_ip, received_at, event_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING RETURNING seq`,
    event.id, entry.dedupKey, event.notiType, event.type, event.mallId, event.pgCno, event.shopOrderNo,
    entry.bodyHash, entry.rawBody, entry.contentType, event.source.ip, event.receivedAt, eventJson,
  );
  if (inserted) {
    // Outbox order = commit order: see outboxChanged() for why the seq is drawn under a lock.
    yield* outboxChanged();
    yield* run(
      'INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms) VALUES (?, ?, ?, ?)',
      inserted.seq, event.id, event.receivedAt, Date.parse(event.receivedAt),
    );
    return { outcome: 'accepted', eventId: event.id };
  }
  // Under READ COMMITTED a racing insert of the same key waited for the winner's commit and did
  // nothing; this statement's fresh snapshot sees the winner's row.
  const stored = yield* get<{ seq: number; event_id: string; body_hash: string }>(
    'SELECT seq, event_id, body_hash FROM inbox WHERE dedup_key = ?',
    entry.dedupKey,
  );
  if (!stored) throw new Error(`event id ${event.id} is already stored under another dedup key`);
  if (stored.body_hash === entry.bodyHash) {
    yield* run('UPDATE inbox SET redeliveries = redeliveries + 1, last_redelivered_at = ? WHERE seq = ?', event.receivedAt, stored.seq);
    return { outcome: 'duplicate', eventId: stored.event_id };
  }
  yield* run(
    `INSERT INTO conflicts (inbox_seq, event_id, dedup_key, received_at, source_ip, content_type, raw_body, body_hash, event_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    stored.seq, stored.event_id, entry.dedupKey, event.receivedAt, event.source.ip, entry.contentType,
    entry.rawBody, entry.bodyHash, eventJson,
  );
  return { outcome: 'conflict', eventId: stored.event_id };
}
