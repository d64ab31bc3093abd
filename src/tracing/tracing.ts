import { ROOT_CONTEXT, trace, type Context, type Link, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';
import { TraceState, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
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
  const exporter: SpanExporter = env.OTEL_TRACES_EXPORTER === 'console' ? new ConsoleSpanExporter() : otlpExporter(env);
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

/**
 * OTLP over HTTP in the encoding OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL names: JSON unless it says
 * http/protobuf, which is smaller on the wire (about 2.4 times) and a little cheaper to encode.
 */
function otlpExporter(env: TracingEnv): SpanExporter {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/json';
  return protocol === 'http/protobuf' ? new OTLPProtobufTraceExporter() : new OTLPJsonTraceExporter();
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

/**
 * The stored form of a span's context (the outbox row's and the command's trace_context column):
 * the `traceparent`, then `;` and the `tracestate` when there is one. Plain text, not JSON: it is
 * written for every traced POST and read for every publish and every link of a projector batch.
 */
export function storedTraceContext(headers: TraceHeaders): string {
  return headers.tracestate ? `${headers.traceparent};${headers.tracestate}` : headers.traceparent;
}

/** What this service's own spans write: version 00, ids in lower-case hex, the flags. */
const STORED_TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ALL_ZEROS = /^0+$/;

/**
 * The span context a stored trace context names, for a parent or a link; undefined when there is
 * none or it does not parse. Rows stored before the plain form (JSON headers) are still read.
 */
export function spanContextOfStored(tracing: Tracing, stored: string | null): SpanContext | undefined {
  if (stored === null || stored === '') return undefined;
  if (stored.startsWith('{')) return spanContextOfStoredJson(tracing, stored);
  const separator = stored.indexOf(';');
  const match = STORED_TRACEPARENT.exec(separator === -1 ? stored : stored.slice(0, separator));
  if (!match || ALL_ZEROS.test(match[1]!) || ALL_ZEROS.test(match[2]!)) return undefined;
  return {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: parseInt(match[3]!, 16),
    isRemote: true,
    ...(separator === -1 ? {} : { traceState: new TraceState(stored.slice(separator + 1)) }),
  };
}

function spanContextOfStoredJson(tracing: Tracing, stored: string): SpanContext | undefined {
  let headers: unknown;
  try {
    headers = JSON.parse(stored);
  } catch {
    return undefined;
  }
  if (typeof headers !== 'object' || headers === null) return undefined;
  return trace.getSpanContext(tracing.contextFrom(headers as Record<string, unknown>));
}

/** A context whose span is the stored one: the parent of a span that continues its trace. */
export const contextOfStored = (spanContext: SpanContext): Context => trace.setSpanContext(ROOT_CONTEXT, spanContext);

export const linkTo = (spanContext: SpanContext): Link => ({ context: spanContext });
