import { CONFLICT_COLUMNS, EVENT_COLUMNS, EVENT_DETAIL_COLUMNS, PENDING_COLUMNS, REJECTION_COLUMNS } from '../row-columns';
import { LOCK_KIND, lockArgs } from './advisory-locks';
import { NEW_EVENTS_CHANNEL } from './relay-lock';

/**
 * Every statement the PostgreSQL store runs. Columns come aliased to the Store interface's
 * names (row-columns.ts); BIGINTs arrive as numbers, see pool.ts.
 */
export const SQL = {
  // No conflict target on purpose: with `ON CONFLICT (dedup_key)` only that index arbitrates, and a
  // racing copy of the same notification would wait on the event_id index instead and then fail with
  // a unique violation (a 503) rather than be answered as the duplicate it is.
  insertInbox: `INSERT INTO inbox
    (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash, raw_body,
     content_type, source_ip, received_at, event_json)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
    ON CONFLICT DO NOTHING RETURNING seq`,
  // Held from just before the outbox seq is drawn until COMMIT (see record()), so outbox seqs commit
  // in the order they are drawn. The notification is delivered on commit only.
  lockOutboxOrder: `SELECT pg_advisory_xact_lock(${lockArgs(LOCK_KIND.outboxOrder)}), pg_notify('${NEW_EVENTS_CHANNEL}', '')`,
  insertOutbox: `INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms) VALUES ($1, $2, $3, $4)`,
  inboxByKey: 'SELECT seq, event_id, body_hash FROM inbox WHERE dedup_key = $1',
  countRedelivery: 'UPDATE inbox SET redeliveries = redeliveries + 1, last_redelivered_at = $1 WHERE seq = $2',
  insertConflict: `INSERT INTO conflicts
    (inbox_seq, event_id, dedup_key, received_at, source_ip, content_type, raw_body, body_hash, event_json)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
  insertRejection: `INSERT INTO rejections (received_at, source_ip, content_type, raw_body, http_status, reason)
    VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,

  nextPending: `SELECT ${PENDING_COLUMNS}
    FROM outbox o JOIN inbox i ON i.seq = o.inbox_seq
    WHERE o.status = 'pending' ORDER BY o.seq LIMIT $1`,
  markDelivered: `UPDATE outbox SET status = 'delivered', delivered_at = $1, attempts = attempts + 1, last_error = NULL
    WHERE seq = $2`,
  markRetry: 'UPDATE outbox SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2 WHERE seq = $3',
  markDead: `UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = $1 WHERE seq = $2`,
  requeue: `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0, delivered_at = NULL
    WHERE event_id = $1`,
  requeueDead: `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0 WHERE status = 'dead'`,
  backlog: `SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
    count(*) FILTER (WHERE status = 'dead') AS dead,
    min(created_at_ms) FILTER (WHERE status = 'pending') AS oldest
    FROM outbox WHERE status IN ('pending', 'dead')`,

  listEvents: `SELECT ${EVENT_COLUMNS} FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq
    WHERE ($1::text IS NULL OR o.status = $1)
      AND ($2::text IS NULL OR i.event_type = $2 OR i.noti_type = $2)
      AND ($3::text IS NULL OR i.shop_order_no = $3)
      AND ($4::text IS NULL OR i.received_at >= $4)
    ORDER BY i.seq DESC LIMIT $5`,
  getEvent: `SELECT ${EVENT_DETAIL_COLUMNS}
    FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq WHERE i.event_id = $1`,
  listRejections: `SELECT ${REJECTION_COLUMNS} FROM rejections ORDER BY id DESC LIMIT $1`,
  getRejection: `SELECT ${REJECTION_COLUMNS} FROM rejections WHERE id = $1`,
  markRejectionReprocessed: 'UPDATE rejections SET reprocessed_at = $1, reprocessed_event_id = $2 WHERE id = $3',
  listConflicts: `SELECT ${CONFLICT_COLUMNS} FROM conflicts ORDER BY id DESC LIMIT $1`,
  getConflict: `SELECT ${CONFLICT_COLUMNS} FROM conflicts WHERE id = $1`,
  ping: 'SELECT 1',
} as const;
