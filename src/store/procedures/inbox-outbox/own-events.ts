import type { InboxOrigin } from '../../types/inbox-outbox';
import { changes, columnArrays, dialect, ladderChunks, ladderRowInserts, lastTrip, outboxChanged, sqlBySize, type Dialect, type Param, type Procedure, type Statement } from '../procedure';

/** Who in the service wrote an inbox row that is not the gateway's (inbox.origin, migration 027). */
export type OwnOrigin = Exclude<InboxOrigin, 'gateway'>;

/** An event of the service's own for the internal queue: stored as an inbox row beside the notifications. */
export interface OwnEvent {
  id: string;
  type: string;
  mallId: string;
  /** The payment the operator finds it by ('' when none). */
  pgCno: string;
  json: string;
  bodyHash: string;
}

// The relay forwards every outbox row the same way, so the service's own events go through the
// inbox/outbox pair as the notifications do. `origin` + ':' + the event's id is the dedup key, and the
// inbox's unique keys (event_id; pg_cno, event_id) keep it once: an event computed again (a
// retried transaction, a rebuild) is queued once. source_ip holds the origin: the row came from no
// address, and no address equals it (the views that show a source show the gateway's rows only).
const INSERT = (rows: number) => `INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno,
    shop_order_no, body_hash, raw_body, content_type, source_ip, origin, received_at, event_json)
  VALUES ${Array.from({ length: rows }, () => "(?, ?, '', ?, ?, ?, NULL, ?, ?, 'application/json', ?, ?, ?, ?)").join(', ')}
  ON CONFLICT DO NOTHING`;
const INSERT_EVENTS = sqlBySize(INSERT);
const SQLITE_VALUES = 11;
// SQLite: each event's outbox row found by both columns of its unique inbox key (pg_cno, event_id),
// queued in seq order, which is the order the rows were inserted in.
const QUEUE_EVENTS = sqlBySize((rows) => `INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms)
  SELECT seq, event_id, received_at, CAST(? AS BIGINT) FROM inbox
  WHERE ${Array.from({ length: rows }, () => '(pg_cno = ? AND event_id = ?)').join(' OR ')}
  ORDER BY seq ON CONFLICT DO NOTHING`);
// PostgreSQL: one fixed text over arrays, one per column (prepared once per connection, whatever
// the batch's size); ORDINALITY keeps the rows' order, in which their seqs are drawn.
const PG_INSERT_AND_QUEUE_EVENTS = `WITH e AS (INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno,
    shop_order_no, body_hash, raw_body, content_type, source_ip, origin, received_at, event_json)
  SELECT v.event_id, v.dedup_key, '', v.event_type, v.mall_id, v.pg_cno, NULL, v.body_hash, v.raw_body, 'application/json', o.origin, o.origin,
    v.received_at, v.event_json
  FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bytea[], ?::text[], ?::text[]) WITH ORDINALITY
    AS v (event_id, dedup_key, event_type, mall_id, pg_cno, body_hash, raw_body, received_at, event_json, n)
    CROSS JOIN (SELECT ?::text AS origin) o
  ORDER BY v.n
  ON CONFLICT DO NOTHING RETURNING seq, event_id, received_at)
  INSERT INTO outbox (inbox_seq, event_id, created_at, created_at_ms)
  SELECT seq, event_id, received_at, CAST(? AS BIGINT) FROM e ORDER BY seq`;
const PG_ARRAYS = 9;

/**
 * The statements that store the service's own events, each with its outbox row, queued in the
 * order given. `at` is when they were made (ISO): their receive time and their outbox rows'. The
 * caller yields `outboxChanged()` before running them (see `queueOwnEvents`), in the transaction
 * that made them.
 */
export function ownEventStatements(origin: OwnOrigin, events: readonly OwnEvent[], at: string, sql: Dialect): Statement[] {
  if (events.length === 0) return [];
  const atMs = Date.parse(at);
  const raw = (e: OwnEvent) => Buffer.from(e.json, 'utf8');
  if (sql === 'postgres') {
    const columns: Param[][] = events.map((e) => [e.id, `${origin}:${e.id}`, e.type, e.mallId, e.pgCno, e.bodyHash, raw(e), at, e.json]);
    return [changes(PG_INSERT_AND_QUEUE_EVENTS, ...columnArrays(columns, PG_ARRAYS), origin, atMs)];
  }
  const rows: Param[][] = events.map((e) => [e.id, `${origin}:${e.id}`, e.type, e.mallId, e.pgCno, e.bodyHash, raw(e), origin, origin, at, e.json]);
  return [
    ...ladderRowInserts(INSERT_EVENTS, SQLITE_VALUES, rows),
    ...ladderChunks(events, 2, 256).map((chunk) => changes(QUEUE_EVENTS(chunk.length), atMs, ...chunk.flatMap((e) => [e.pgCno, e.id]))),
  ];
}

/** Stores and queues the service's own events in the caller's transaction, in the order given. */
export function* queueOwnEvents(origin: OwnOrigin, events: readonly OwnEvent[], at: string): Procedure<void> {
  const statements = ownEventStatements(origin, events, at, yield* dialect());
  if (statements.length === 0) return;
  yield* outboxChanged();
  yield* lastTrip(...statements);
}
