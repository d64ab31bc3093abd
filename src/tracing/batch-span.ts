import { SpanKind, SpanStatusCode, type Attributes, type Link } from '@opentelemetry/api';
import { linkTo, spanContextOfStored, type Tracing } from './tracing';

/**
 * Most links one batch span carries. A full batch applies hundreds of notifications (1,000 on
 * PostgreSQL); a span with that many links is heavy to export and to show, and the SDK's own
 * default limit is the same 128. The rest are counted in `noti.batch.links_dropped`.
 */
export const BATCH_SPAN_LINKS = 128;

export interface FinishedBatch {
  /** When the batch started and ended, as `performance.now()` read them. */
  startTime: number;
  endTime: number;
  /** The stored trace context of each event the batch applied (the outbox row's `trace_context`). */
  storedContexts: readonly string[];
  attributes: Attributes;
  /** The batch failed as a whole (nothing was written). */
  error?: Error;
}

/**
 * The span of one batch of work on stored events (the ledger projector's batch), recorded once the
 * batch is over, so the links, read by the batch itself, are known when the span starts (a sampler
 * may look at them). A root of its own, linked to the span that stored each event: the batch
 * applies many notifications from many traces, none of them its parent.
 */
export function recordBatchSpan(tracing: Tracing, name: string, batch: FinishedBatch): void {
  const links: Link[] = [];
  let unreadable = 0;
  for (const stored of batch.storedContexts.slice(0, BATCH_SPAN_LINKS)) {
    const found = spanContextOfStored(tracing, stored);
    if (found) links.push(linkTo(found));
    else unreadable += 1;
  }
  const span = tracing.tracer.startSpan(name, {
    kind: SpanKind.INTERNAL,
    root: true,
    startTime: batch.startTime,
    links,
    attributes: {
      ...batch.attributes,
      'noti.batch.links': links.length,
      'noti.batch.links_dropped': Math.max(0, batch.storedContexts.length - BATCH_SPAN_LINKS) + unreadable,
    },
  });
  if (batch.error) {
    span.recordException(batch.error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: batch.error.message });
  }
  span.end(batch.endTime);
}
