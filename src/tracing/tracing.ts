import { context, propagation, ROOT_CONTEXT, trace, type Context, type Link, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { tracingWanted, type TracingEnv } from '../config/tracing-env';

/** A span's W3C trace context as carried in a message: `traceparent`, and `tracestate` when there is one. */
export interface TraceHeaders {
  traceparent: string;
  tracestate?: string;
}

/**
 * The service's tracing when OTEL_* asks for it; null otherwise, and every caller checks for
 * null first, so with tracing off no span object is made and no context is propagated.
 */
export interface Tracing {
  readonly tracer: Tracer;
  /** The span's context as W3C headers, to keep with an outbox row or put in a message. */
  headersOf(span: Span): TraceHeaders;
  /** The context W3C headers name (a stored row's, an incoming request's); ROOT when they name none. */
  contextFrom(headers: Readonly<Record<string, unknown>>): Context;
  /** Exports what is buffered: at shutdown, and in tests. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const propagator = new W3CTraceContextPropagator();

/** Starts the OpenTelemetry SDK from the OTEL_* variables; null when they leave tracing off (the default). */
export function startTracing(env: TracingEnv, version = '0.1.0'): Tracing | null {
  if (!tracingWanted(env)) return null;
  const exporter: SpanExporter = env.OTEL_TRACES_EXPORTER === 'console' ? new ConsoleSpanExporter() : new OTLPTraceExporter();
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME ?? 'payment-noti-receiver', [ATTR_SERVICE_VERSION]: version })
    .merge(detectResources({ detectors: [envDetector] }));
  // The sampler comes from OTEL_TRACES_SAMPLER / _ARG, read by the provider itself.
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  // No context manager: every span's parent is passed explicitly (the API request's context to its
  // commands, a stored context to the relay's producer spans), and the default one, on
  // AsyncLocalStorage, would run async hooks on every promise of the process, traced or not.
  provider.register({ propagator, contextManager: null });
  return tracingOver(provider.getTracer('payment-noti-receiver', version), provider);
}

/** A Tracing over a given provider: what startTracing returns, and what tests build over their own. */
export function tracingOver(tracer: Tracer, provider: { forceFlush(): Promise<void>; shutdown(): Promise<void> }): Tracing {
  return {
    tracer,
    headersOf(span) {
      // The W3C form the propagator's inject writes, without a context and a carrier per call: it
      // runs for every POST and every publish. The SDK's spans always have valid ids.
      const { traceId, spanId, traceFlags, traceState } = span.spanContext();
      const traceparent = `00-${traceId}-${spanId}-0${(traceFlags & 0xff).toString(16)}`;
      return traceState ? { traceparent, tracestate: traceState.serialize() } : { traceparent };
    },
    contextFrom(headers) {
      return propagator.extract(ROOT_CONTEXT, headers, {
        get: (carrier, key) => {
          const value = carrier[key];
          return typeof value === 'string' ? value : Array.isArray(value) ? (value[0] as string) : undefined;
        },
        keys: (carrier) => Object.keys(carrier),
      });
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** The stored form of a span's context (the outbox row's trace_context column): its W3C headers as JSON. */
export function storedTraceContext(headers: TraceHeaders): string {
  return JSON.stringify(headers);
}

/** The span context a stored trace context names, for a parent or a link; undefined when there is none or it does not parse. */
export function spanContextOfStored(tracing: Tracing, stored: string | null): { context: Context; spanContext: SpanContext } | undefined {
  if (stored === null) return undefined;
  let headers: unknown;
  try {
    headers = JSON.parse(stored);
  } catch {
    return undefined;
  }
  if (typeof headers !== 'object' || headers === null) return undefined;
  const parent = tracing.contextFrom(headers as Record<string, unknown>);
  const spanContext = trace.getSpanContext(parent);
  return spanContext ? { context: parent, spanContext } : undefined;
}

export const linkTo = (spanContext: SpanContext): Link => ({ context: spanContext });
export { context, propagation };
