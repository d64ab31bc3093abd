import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { OutboundEvent } from '../publishers/publisher';
import type { OutboxRecord } from '../store/store';
import { ATTR } from '../http/notification-span';
import { contextOfStored, linkTo, spanContextOfStored, type TraceHeaders, type Tracing } from '../tracing/tracing';

/** The messaging system each publisher kind is, in OpenTelemetry's names. */
const SYSTEMS: Record<string, string> = { amqp: 'rabbitmq', nats: 'nats', redis: 'redis', http: 'http', file: 'file' };

export interface PublishSpans {
  /** The events to publish, each with its producer span's W3C context to carry. */
  events: OutboundEvent[];
  /** Ends every span: delivered, or failed with `error`. */
  end(error?: Error): void;
}

/**
 * One producer span per event the relay publishes that a traced POST stored: in that POST's trace
 * (its parent, and a link to it, from the context kept with the outbox row), with the transport
 * and the attempt number. Its context is what the message carries, so a consumer continues the
 * notification's trace. Rows without a stored context (the ledger's and the commands' events,
 * rows stored while tracing was off) belong to no trace: they share one producer span per
 * publish, a root of its own, whose context each of their messages carries. Under load a publish
 * carries hundreds of ledger events, and a root span for each was a third of all spans exported.
 */
export function startPublishSpans(tracing: Tracing, rows: readonly OutboxRecord[], kind: string, toEvent: (row: OutboxRecord) => OutboundEvent): PublishSpans {
  const spans: Span[] = [];
  const system = SYSTEMS[kind] ?? kind;
  const stored = rows.map((row) => spanContextOfStored(tracing, row.traceContext ?? null));
  const untraced = rows.filter((_row, i) => stored[i] === undefined);
  let shared: TraceHeaders | undefined;
  if (untraced.length > 0) {
    const first = untraced[0]!;
    const span = tracing.tracer.startSpan(untraced.every((row) => row.eventType === first.eventType) ? `send ${first.eventType}` : 'send', {
      kind: SpanKind.PRODUCER,
      root: true,
      attributes: {
        'messaging.system': system,
        'messaging.operation.type': 'send',
        ...(untraced.length === 1 ? { 'messaging.message.id': first.eventId } : {}),
        'messaging.batch.message_count': untraced.length,
        [ATTR.transport]: kind,
        [ATTR.attempt]: Math.max(...untraced.map((row) => row.attempts)) + 1,
      },
    });
    spans.push(span);
    shared = tracing.headersOf(span);
  }
  const events = rows.map((row, i) => {
    const context = stored[i];
    if (context === undefined) return { ...toEvent(row), trace: shared! };
    const span = tracing.tracer.startSpan(`send ${row.eventType}`, {
      kind: SpanKind.PRODUCER,
      links: [linkTo(context)],
      attributes: {
        'messaging.system': system,
        'messaging.operation.type': 'send',
        'messaging.message.id': row.eventId,
        'messaging.batch.message_count': rows.length,
        [ATTR.transport]: kind,
        // The event id is messaging.message.id; the POST span carries it as noti.event_id.
        [ATTR.attempt]: row.attempts + 1,
      },
    }, contextOfStored(context));
    spans.push(span);
    return { ...toEvent(row), trace: tracing.headersOf(span) };
  });
  return {
    events,
    end(error) {
      for (const span of spans) {
        if (error) {
          span.recordException(error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
        }
        span.end();
      }
    },
  };
}
