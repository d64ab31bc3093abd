import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { OutboundEvent } from '../publishers/publisher';
import type { OutboxRecord } from '../store/store';
import { ATTR } from './notification-span';
import { contextOfStored, linkTo, spanContextOfStored, type Tracing } from './tracing';

/** The messaging system each publisher kind is, in OpenTelemetry's names. */
const SYSTEMS: Record<string, string> = { amqp: 'rabbitmq', nats: 'nats', redis: 'redis', http: 'http', file: 'file' };

export interface PublishSpans {
  /** The events to publish, each with its producer span's W3C context to carry. */
  events: OutboundEvent[];
  /** Ends every span: delivered, or failed with `error`. */
  end(error?: Error): void;
}

/**
 * One producer span per event the relay publishes: in the trace of the POST that stored it (its
 * parent, and a link to it, from the context kept with the outbox row), with the transport and
 * the attempt number. Its context is what the message carries, so a consumer continues the
 * notification's trace. Rows without a stored context (tracing was off, the ledger's and the
 * commands' events) start a trace of their own.
 */
export function startPublishSpans(tracing: Tracing, rows: readonly OutboxRecord[], kind: string, toEvent: (row: OutboxRecord) => OutboundEvent): PublishSpans {
  const spans: Span[] = [];
  const events = rows.map((row) => {
    const stored = spanContextOfStored(tracing, row.traceContext ?? null);
    const span = tracing.tracer.startSpan(`send ${row.eventType}`, {
      kind: SpanKind.PRODUCER,
      links: stored ? [linkTo(stored)] : [],
      attributes: {
        'messaging.system': SYSTEMS[kind] ?? kind,
        'messaging.operation.type': 'send',
        'messaging.message.id': row.eventId,
        'messaging.batch.message_count': rows.length,
        [ATTR.transport]: kind,
        // The event id is messaging.message.id; the POST span carries it as noti.event_id.
        [ATTR.attempt]: row.attempts + 1,
      },
    }, stored ? contextOfStored(stored) : ROOT_CONTEXT);
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
