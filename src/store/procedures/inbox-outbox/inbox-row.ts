import type { LedgerFact } from '../../../ledger/fold/ledger-facts';
import { notificationFact } from '../../../ledger/fold/notification-fact';
import type { NormalizedEvent } from '../../../notifications/normalized-event';
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

/**
 * The ledger's fact of a stored notification (JSON), made by its projector from the stored event, or
 * null when it names no order. The ledger places a fact by its time. A gateway time it cannot read would refuse the whole
 * batch (503) and the gateway would resend it for ever, so such a fact is placed at its receive
 * time instead: the notification is stored either way.
 */
export function ledgerFactOf(event: NormalizedEvent): string | null {
  return storedFactOf(event)?.json ?? null;
}

/** `ledgerFactOf` with the fact itself beside its JSON, for a caller that folds it (no parse of what was just written). */
export function storedFactOf(event: NormalizedEvent): { fact: LedgerFact; json: string } | null {
  const made = notificationFact(event);
  if (made === null) return null;
  const fact: LedgerFact = Number.isNaN(Date.parse(made.fact.at)) ? { ...made.fact, at: made.fact.recordedAt, occurredAt: null } : made.fact;
  return { fact, json: JSON.stringify(fact) };
}
