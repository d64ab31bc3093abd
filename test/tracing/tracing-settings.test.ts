import { loadConfig } from '../../src/config/env';
import { tracingWanted } from '../../src/config/tracing-env';
import { startTracing } from '../../src/tracing/tracing';

describe('tracing settings: the standard OTEL_* variables, off by default', () => {
  it('is off unless an exporter or an OTLP endpoint is named, and when disabled or set to none', () => {
    expect(tracingWanted({})).toBe(false);
    expect(startTracing(loadConfig({}))).toBeNull();
    expect(tracingWanted({ OTEL_SERVICE_NAME: 'shop-a', OTEL_TRACES_SAMPLER: 'always_on' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc', 'must be http/json'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'tempo:4318', 'must be an http(s):// URL'],
    ['OTEL_TRACES_EXPORTER', 'zipkin', 'must be otlp, console or none'],
    ['OTEL_TRACES_SAMPLER', 'sometimes', 'must be one of always_on'],
  ])('refuses %s=%s at start, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`invalid ${name} (got "${value}"): ${message}`);
  });
});
