import type { InboxEntry, RecordResult } from '../store';
import { get, outboxChanged, run, type Procedure } from './procedure';

/**
 * Dedup and store one notification: a new key writes inbox + outbox, the same body again is a
 * counted duplicate, a different body under the same key is kept as a conflict and not queued.
 */
export function* recordNotification(entry: InboxEntry): Procedure<RecordResult> {
  const { event } = entry;
  const eventJson = JSON.stringify(event);
  // One unique key decides: the event id, sha256 of entry.dedupKey (eventIdFor), so one dedup key is
  // one id (migration 006 dropped the second unique index on dedup_key). In PostgreSQL a racing copy
  // of the same notification waits on it for the winner's commit, then does nothing and is answered
  // below as the duplicate it is. No conflict target on purpose: with one naming a single index, a
  // race decided on any other unique key fails with a unique violation (a 503) instead.
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
  const stored = yield* get<{ seq: number; dedup_key: string; body_hash: string }>(
    'SELECT seq, dedup_key, body_hash FROM inbox WHERE event_id = ?',
    event.id,
  );
  if (!stored) throw new Error(`the inbox refused event id ${event.id}, yet holds no row with it`);
  // Two dedup keys with one event id would be a sha256 collision (or a caller's bug): refuse it
  // (a 503 the operator sees) rather than take another notification for a redelivery.
  if (stored.dedup_key !== entry.dedupKey) throw new Error(`event id ${event.id} is already stored under another dedup key`);
  if (stored.body_hash === entry.bodyHash) {
    yield* run('UPDATE inbox SET redeliveries = redeliveries + 1, last_redelivered_at = ? WHERE seq = ?', event.receivedAt, stored.seq);
    return { outcome: 'duplicate', eventId: event.id };
  }
  yield* run(
    `INSERT INTO conflicts (inbox_seq, event_id, dedup_key, received_at, source_ip, content_type, raw_body, body_hash, event_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    stored.seq, event.id, entry.dedupKey, event.receivedAt, event.source.ip, entry.contentType,
    entry.rawBody, entry.bodyHash, eventJson,
  );
  return { outcome: 'conflict', eventId: event.id };
}
