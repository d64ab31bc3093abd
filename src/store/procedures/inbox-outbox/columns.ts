/**
 * Column lists aliased to the Store interface's names, so rows need no mapping beyond parsing
 * event_json. Plain SQL both databases read the same way.
 */
export const EVENT_COLUMNS = `i.seq, i.event_id AS "eventId", i.event_type AS "type", i.noti_type AS "notiType",
  i.mall_id AS "mallId", i.pg_cno AS "pgCno", i.shop_order_no AS "shopOrderNo", o.status, o.attempts,
  o.last_error AS "lastError", i.received_at AS "receivedAt", o.delivered_at AS "deliveredAt", i.redeliveries`;

export const EVENT_DETAIL_COLUMNS = `${EVENT_COLUMNS}, i.event_json, i.origin, i.source_ip AS "sourceIp",
  i.content_type AS "contentType", i.raw_body AS "rawBody", i.pruned_at AS "prunedAt"`;

export const REJECTION_COLUMNS = `id, received_at AS "receivedAt", source_ip AS "sourceIp", content_type AS "contentType",
  raw_body AS "rawBody", http_status AS "httpStatus", reason, reprocessed_at AS "reprocessedAt",
  reprocessed_event_id AS "reprocessedEventId"`;

export const CONFLICT_COLUMNS = `id, event_id AS "eventId", dedup_key AS "dedupKey", received_at AS "receivedAt",
  source_ip AS "sourceIp", content_type AS "contentType", raw_body AS "rawBody", pruned_at AS "prunedAt", event_json`;

export const PENDING_COLUMNS = `o.seq, o.event_id AS "eventId", i.event_type AS "eventType", i.received_at AS "receivedAt",
  o.attempts, o.next_attempt_at AS "nextAttemptAt", i.event_json AS "eventJson", o.trace_context AS "traceContext"`;

/** Rows that carry the stored event as JSON text, parsed into the interface's `event`. */
export function withEvent<T extends { event_json: string }, E>(row: T): Omit<T, 'event_json'> & { event: E } {
  const { event_json, ...rest } = row;
  return { ...rest, event: JSON.parse(event_json) as E };
}

export type ConflictSqlRow = Omit<import('../../store').ConflictRow, 'event'> & { event_json: string };
