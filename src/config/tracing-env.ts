import { z } from 'zod';

/**
 * OpenTelemetry's own variables, the ones this service honours: checked at start like every
 * other setting, then read by the SDK itself. Tracing is off unless an exporter or an OTLP
 * endpoint is named; OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn it off.
 */
export const tracingEnvSettings = {
  OTEL_SDK_DISABLED: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'console', 'none'], { error: 'must be otlp, console or none' }).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL such as http://127.0.0.1:4318' }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL such as http://127.0.0.1:4318/v1/traces' }).optional(),
  // OTLP over HTTP, JSON (the default) or protobuf, both of which Tempo, Jaeger and the OpenTelemetry Collector take on /v1/traces.
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/json', 'http/protobuf'], { error: 'must be http/json or http/protobuf (OTLP over HTTP)' }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/json', 'http/protobuf'], { error: 'must be http/json or http/protobuf (OTLP over HTTP)' }).optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_RESOURCE_ATTRIBUTES: z.string().optional(),
  OTEL_TRACES_SAMPLER: z.enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'], {
    error: 'must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio',
  }).optional(),
  OTEL_TRACES_SAMPLER_ARG: z.string().optional(),
};

export type TracingEnv = { [K in keyof typeof tracingEnvSettings]?: z.infer<(typeof tracingEnvSettings)[K]> };

/** Whether the service exports traces at all: off by default. */
export function tracingWanted(env: TracingEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return env.OTEL_TRACES_EXPORTER !== undefined || env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}
