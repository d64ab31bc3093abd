import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import { linkTo, spanContextOfStored, type Tracing } from './tracing';

/**
 * A span around one batch of work on stored events (the ledger projector's batch, a rebuild's
 * page), linked to the spans that stored them: pass each event's stored trace context (the
 * outbox row's `traceContext`; null ones are skipped). With tracing off (null) it only runs `work`.
 */
export async function inBatchSpan<T>(
  tracing: Tracing | null | undefined,
  name: string,
  storedContexts: ReadonlyArray<string | null | undefined>,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  if (!tracing) return work();
  const links = storedContexts.flatMap((stored) => {
    const found = spanContextOfStored(tracing, stored ?? null);
    return found ? [linkTo(found.spanContext)] : [];
  });
  const span = tracing.tracer.startSpan(name, { kind: SpanKind.INTERNAL, root: true, links, attributes: { ...attributes, 'noti.batch.size': storedContexts.length } });
  try {
    return await work();
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}
