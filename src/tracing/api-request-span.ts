import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import type { Tracing } from './tracing';

/**
 * A server span per internal API request, continuing the `traceparent` the merchant's system
 * sent (the API is behind a token: its callers are the merchant's own services). The rest of the
 * request runs in its context, so the gateway calls it makes are its children.
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
    context.with(trace.setSpan(parent, span), next);
  };
}
