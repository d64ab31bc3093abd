import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import type { Request, RequestHandler, Response } from 'express';
import { maskCardNumbers } from '../observability/card-numbers';
import type { Tracing } from '../tracing/tracing';

/** Where a request's span context is kept for the handlers: passed explicitly, there is no context manager. */
const TRACE_CONTEXT = 'traceContext';

/** The request's span context, set by `apiRequestSpan`; undefined with tracing off. */
export function requestTraceContext(res: Response): Context | undefined {
  return res.locals[TRACE_CONTEXT] as Context | undefined;
}

/**
 * A server span per internal API request. Only a request that carries the API token continues the
 * `traceparent` (and `tracestate`) it sent: the merchant's own services do, and anyone else who
 * reaches the port must not write spans into the merchant's traces. Such a request is still traced,
 * as a root of its own, so refusals stay visible. The rest of the request gets its context
 * (`requestTraceContext`), so the gateway calls it makes are its children.
 *
 * Path values are order numbers and command ids a caller chose, and may be card numbers: the span
 * is named by the route template, and `url.path` is kept decoded with card numbers masked.
 */
export function apiRequestSpan(tracing: Tracing, authenticated: (req: Request) => boolean): RequestHandler {
  return (req, res, next) => {
    const parent = authenticated(req) ? tracing.contextFrom(req.headers) : ROOT_CONTEXT;
    const span = tracing.tracer.startSpan(req.method, {
      kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': shownPath(req.path) },
    }, parent);
    res.on('finish', () => {
      const route = routeTemplate(req);
      if (route !== undefined) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    res.locals[TRACE_CONTEXT] = trace.setSpan(parent, span);
    next();
  };
}

/**
 * The template of the route that answered (`/v1/commands/:shopTransactionId`); undefined when
 * none did (a refused token, an unknown path) or it was a pattern that is no template: the span
 * is then named by the method alone, as OpenTelemetry's HTTP conventions ask.
 */
function routeTemplate(req: Request): string | undefined {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? req.baseUrl + path : undefined;
}

/**
 * The path as the route reads it (percent-decoded: `4111%2D1111…` is the card `4111-1111…`), with
 * card numbers masked; a path that does not decode is masked as it came.
 */
function shownPath(path: string): string {
  try {
    return maskCardNumbers(decodeURIComponent(path));
  } catch {
    return maskCardNumbers(path);
  }
}
