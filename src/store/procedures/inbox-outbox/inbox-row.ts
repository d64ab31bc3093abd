import type { InboxEntry } from '../../store';

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
  /** The stored span's trace context (JSON) for the outbox row; null with tracing off. */
  traceContext: string | null;
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
    traceContext: entry.traceContext ?? null,
  };
}
