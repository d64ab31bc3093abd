import type { Database } from 'better-sqlite3';
import { CONFLICT_COLUMNS, EVENT_COLUMNS, EVENT_DETAIL_COLUMNS, PENDING_COLUMNS, REJECTION_COLUMNS } from '../row-columns';

/** Every statement the SQLite store runs, prepared once per connection. */
export function prepareStatements(db: Database) {
  return {
    insertInbox: db.prepare(`INSERT INTO inbox
      (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash, raw_body,
       content_type, source_ip, received_at, event_json)
      VALUES (@event_id, @dedup_key, @noti_type, @event_type, @mall_id, @pg_cno, @shop_order_no, @body_hash,
       @raw_body, @content_type, @source_ip, @received_at, @event_json)
      ON CONFLICT (dedup_key) DO NOTHING RETURNING seq`),
    insertOutbox: db.prepare(`INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms)
      VALUES (@inbox_seq, @event_id, @created_at, @created_at_ms)`),
    inboxByKey: db.prepare('SELECT seq, event_id, body_hash FROM inbox WHERE dedup_key = ?'),
    countRedelivery: db.prepare('UPDATE inbox SET redeliveries = redeliveries + 1, last_redelivered_at = ? WHERE seq = ?'),
    insertConflict: db.prepare(`INSERT INTO conflicts
      (inbox_seq, event_id, dedup_key, received_at, source_ip, content_type, raw_body, body_hash, event_json)
      VALUES (@inbox_seq, @event_id, @dedup_key, @received_at, @source_ip, @content_type, @raw_body, @body_hash, @event_json)`),
    insertRejection: db.prepare(`INSERT INTO rejections (received_at, source_ip, content_type, raw_body, http_status, reason)
      VALUES (@received_at, @source_ip, @content_type, @raw_body, @http_status, @reason)`),

    nextPending: db.prepare(`SELECT ${PENDING_COLUMNS}
      FROM outbox o JOIN inbox i ON i.seq = o.inbox_seq
      WHERE o.status = 'pending' ORDER BY o.seq LIMIT ?`),
    markDelivered: db.prepare(`UPDATE outbox SET status = 'delivered', delivered_at = ?, attempts = attempts + 1,
      last_error = NULL WHERE seq = ?`),
    markRetry: db.prepare('UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE seq = ?'),
    markDead: db.prepare(`UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = ? WHERE seq = ?`),
    requeue: db.prepare(`UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0, delivered_at = NULL
      WHERE event_id = ?`),
    requeueDead: db.prepare(`UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0 WHERE status = 'dead'`),
    pendingStats: db.prepare(`SELECT count(*) AS pending, min(created_at_ms) AS oldest FROM outbox WHERE status = 'pending'`),
    deadCount: db.prepare(`SELECT count(*) AS dead FROM outbox WHERE status = 'dead'`),

    listEvents: db.prepare(`SELECT ${EVENT_COLUMNS} FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq
      WHERE (@status IS NULL OR o.status = @status)
        AND (@type IS NULL OR i.event_type = @type OR i.noti_type = @type)
        AND (@shop_order_no IS NULL OR i.shop_order_no = @shop_order_no)
        AND (@since IS NULL OR i.received_at >= @since)
      ORDER BY i.seq DESC LIMIT @limit`),
    getEvent: db.prepare(`SELECT ${EVENT_DETAIL_COLUMNS}
      FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq WHERE i.event_id = ?`),
    listRejections: db.prepare(`SELECT ${REJECTION_COLUMNS} FROM rejections ORDER BY id DESC LIMIT ?`),
    getRejection: db.prepare(`SELECT ${REJECTION_COLUMNS} FROM rejections WHERE id = ?`),
    markRejectionReprocessed: db.prepare('UPDATE rejections SET reprocessed_at = ?, reprocessed_event_id = ? WHERE id = ?'),
    listConflicts: db.prepare(`SELECT ${CONFLICT_COLUMNS} FROM conflicts ORDER BY id DESC LIMIT ?`),
    getConflict: db.prepare(`SELECT ${CONFLICT_COLUMNS} FROM conflicts WHERE id = ?`),
    ping: db.prepare('SELECT 1'),
  };
}
