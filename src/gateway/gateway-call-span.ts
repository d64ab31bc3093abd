import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { OPERATIONS, type Operation } from './operations';
import { linkTo, spanContextOfStored, storedTraceContext, type Tracing } from '../tracing/tracing';

/** The span of `parent` (the internal API request's) as the command row keeps it, or null. */
export function storedTraceContextOf(tracing: Tracing, parent: Context | undefined): string | null {
  const span = parent ? trace.getSpan(parent) : undefined;
  return span ? storedTraceContext(tracing.headersOf(span)) : null;
}

/**
 * A client span for one call to the gateway: a child of `parent` (the internal API request that
 * sent it; none for the worker's resends), and linked to the command's first span, so a resend or a net-cancel the
 * worker makes later, in a trace of its own, leads back to the request that started it.
 */
export function startGatewayCallSpan(tracing: Tracing, operation: Operation, attempt: number, commandContext: string | null, parent: Context = ROOT_CONTEXT): Span {
  const first = spanContextOfStored(tracing, commandContext);
  const { path } = OPERATIONS[operation];
  return tracing.tracer.startSpan(`gateway ${operation}`, {
    kind: SpanKind.CLIENT,
    links: first ? [linkTo(first)] : [],
    attributes: { 'http.request.method': 'POST', 'url.path': path, 'gateway.operation': operation, 'noti.command.attempt': attempt },
  }, parent);
}

export function endGatewayCallSpan(span: Span, verdict: string, httpStatus: number | null): void {
  span.setAttribute('gateway.verdict', verdict);
  if (httpStatus !== null) span.setAttribute('http.response.status_code', httpStatus);
  if (verdict !== 'success') span.setStatus({ code: SpanStatusCode.ERROR, message: verdict });
  span.end();
}
