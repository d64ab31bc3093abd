import { SpanKind, SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import { isNotiType } from '../notifications/event-types';
import type { RecordResult } from '../store/store';
import { storedTraceContext, type Tracing } from '../tracing/tracing';

/** Attribute names of the receiver's own spans. */
export const ATTR = {
  notiType: 'noti.type',
  outcome: 'noti.outcome',
  eventId: 'noti.event_id',
  commitBatch: 'noti.commit.batch_size',
  transport: 'noti.relay.transport',
  attempt: 'noti.relay.attempt',
} as const;

export interface NotificationSpan {
  span: Span;
  /** The span's W3C context as the outbox row keeps it. */
  storedContext: string;
}

/**
 * The server span of one notification POST. It is a root: the gateway sends no trace context, and
 * one forged by whoever reaches the port must not decide where the span lands. Attributes are the
 * event code, the outcome, the event id and the commit's batch size: never a field of the body.
 */
export function startNotificationSpan(tracing: Tracing, path: string): NotificationSpan {
  const span = tracing.tracer.startSpan(`POST ${path}`, {
    kind: SpanKind.SERVER, root: true, attributes: { 'http.request.method': 'POST', 'url.path': path },
  });
  return { span, storedContext: storedTraceContext(tracing.headersOf(span)) };
}

export function endNotificationSpan(span: Span, notiType: unknown, result: RecordResult): void {
  // One call (each setAttribute checks the span and the limits again), on one object built in place.
  const attributes: Attributes = { [ATTR.outcome]: result.outcome, [ATTR.eventId]: result.eventId, 'http.response.status_code': 200 };
  if (typeof notiType === 'string' && isNotiType(notiType)) attributes[ATTR.notiType] = notiType;
  if (result.batchSize !== undefined) attributes[ATTR.commitBatch] = result.batchSize;
  span.setAttributes(attributes);
  span.end();
}

/** A refused or failed POST: the answer's status, and an error status when the fault is ours (5xx). */
export function endRefusedNotificationSpan(span: Span, notiType: unknown, status: number): void {
  if (typeof notiType === 'string' && isNotiType(notiType)) span.setAttribute(ATTR.notiType, notiType);
  span.setAttribute(ATTR.outcome, 'rejected');
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
