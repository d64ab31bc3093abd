import { SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import type { RequestHandler, Response } from 'express';
import type { Tracing } from '../tracing/tracing';

/** Where a request's span context is kept for the handlers: passed explicitly, there is no context manager. */
const TRACE_CONTEXT = 'traceContext';

/** The request's span context, set by `apiRequestSpan`; undefined with tracing off. */
export function requestTraceContext(res: Response): Context | undefined {
  return res.locals[TRACE_CONTEXT] as Context | undefined;
}

/**
 * A server span per internal API request, continuing the `traceparent` the merchant's system
 * sent (the API is behind a token: its callers are the merchant's own services). The rest of the
 * request gets its context (`requestTraceContext`), so the gateway calls it makes are its children.
 */
export function apiRequestSpan(tracing: Tracing): RequestHandler {
  return (req, res, next) => {
    const parent = tracing.contextFrom(req.headers);
    const span = tracing.tracer.startSpan(`${req.method} ${req.path}`, {
      kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path },
    }, parent);
    res.on('finish', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    res.locals[TRACE_CONTEXT] = trace.setSpan(parent, span);
    next();
  };
}
