import type { InboxEntry, RecordResult } from '../store';
import { get, outboxChanged, run, type Procedure } from './procedure';

/**
 * What the inbox keeps of one notification, flat: cheap to hand to the SQLite writer thread (a
 * structured clone of strings and transferred bytes, where the nested event cost a walk of every
 * field on both threads). The stored event JSON is decided here, once, for both databases.
 */
export interface InboxRow {
  eventId: string;
  dedupKey: string;
  notiType: string;
  eventType: string;
  mallId: string;
  pgCno: string;
  shopOrderNo: string | null;
  bodyHash: string;
  rawBody: Buffer;
  contentType: string;
  sourceIp: string;
  receivedAt: string;
  eventJson: string;
}

export function inboxRow(entry: InboxEntry): InboxRow {
  const { event } = entry;
  return {
    eventId: event.id,
    dedupKey: entry.dedupKey,
    notiType: event.notiType,
    eventType: event.type,
    mallId: event.mallId,
    pgCno: event.pgCno,
    shopOrderNo: event.shopOrderNo,
    bodyHash: entry.bodyHash,
    rawBody: entry.rawBody,
    contentType: entry.contentType,
    sourceIp: event.source.ip,
    receivedAt: event.receivedAt,
    eventJson: JSON.stringify(event),
  };
}

/**
 * Dedup and store one notification: a new key writes inbox + outbox, the same body again is a
 * counted duplicate, a different body under the same key is kept as a conflict and not queued.
 */
export function* recordNotification(row: InboxRow): Procedure<RecordResult> {
  // One unique key decides: the event id, sha256 of row.dedupKey (eventIdFor), so one dedup key is
  // one id (migration 006 dropped the second unique index on dedup_key). In PostgreSQL a racing copy
  // of the same notification waits on it for the winner's commit, then does nothing and is answered
  // below as the duplicate it is. No conflict target on purpose: with one naming a single index, a
  // race decided on any other unique key fails with a unique violation (a 503) instead.
  const inserted = yield* get<{ seq: number }>(
    `INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash,
       raw_body, content_type, source_ip, received_at, event_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING RETURNING seq`,
    row.eventId, row.dedupKey, row.notiType, row.eventType, row.mallId, row.pgCno, row.shopOrderNo,
    row.bodyHash, row.rawBody, row.contentType, row.sourceIp, row.receivedAt, row.eventJson,
  );
  if (inserted) {
    // Outbox order = commit order: see outboxChanged() for why the seq is drawn under a lock.
    yield* outboxChanged();
    yield* run(
      'INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms) VALUES (?, ?, ?, ?)',
      inserted.seq, row.eventId, row.receivedAt, Date.parse(row.receivedAt),
    );
    return { outcome: 'accepted', eventId: row.eventId };
  }
  // Under READ COMMITTED a racing insert of the same key waited for the winner's commit and did
  // nothing; this statement's fresh snapshot sees the winner's row.
  const stored = yield* get<{ seq: number; dedup_key: string; body_hash: string }>(
    'SELECT seq, dedup_key, body_hash FROM inbox WHERE event_id = ?',
    row.eventId,
  );
  if (!stored) throw new Error(`the inbox refused event id ${row.eventId}, yet holds no row with it`);
  // Two dedup keys with one event id would be a sha256 collision (or a caller's bug): refuse it
  // (a 503 the operator sees) rather than take another notification for a redelivery.
  if (stored.dedup_key !== row.dedupKey) throw new Error(`event id ${row.eventId} is already stored under another dedup key`);
  if (stored.body_hash === row.bodyHash) {
    yield* run('UPDATE inbox SET redeliveries = redeliveries + 1, last_redelivered_at = ? WHERE seq = ?', row.receivedAt, stored.seq);
    return { outcome: 'duplicate', eventId: row.eventId };
  }
  yield* run(
    `INSERT INTO conflicts (inbox_seq, event_id, dedup_key, received_at, source_ip, content_type, raw_body, body_hash, event_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    stored.seq, row.eventId, row.dedupKey, row.receivedAt, row.sourceIp, row.contentType,
    row.rawBody, row.bodyHash, row.eventJson,
  );
  return { outcome: 'conflict', eventId: row.eventId };
}
